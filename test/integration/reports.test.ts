import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { kitSchema } from "../../src/core/schema.js";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const FAKE = join(ROOT, "dist/src/mocks/provider.js");
const FILES = ["report.json", "report.xml", "report.tap", "report.md", "report.html", "badge.svg", "badge.json"];
let out = "";
let code = -1;
const temp = useTempDirs();

// One real run with a SHOULD failure; every other test re-renders or re-judges its report.json.
beforeAll(async () => {
  out = temp();
  const result = await runCli(["run", "--protocol", "provider", "--clause", "provider/robustness", "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"), "--reporter", "console,json,junit,tap,markdown,html,badge", "--out", out, FAKE, "--", "--fault", "accept-duplicate-keys"]);
  code = result.code;
}, 60_000);

describe("reporters from the command line", () => {
  it("writes every format under its documented name; a SHOULD failure is a warning", () => {
    expect(code).toBe(0);
    for (const file of FILES) expect(existsSync(join(out, file)), file).toBe(true);
    expect(readReport(out).summary).toMatchObject({ warnings: 1, verdict: "conformant", level: "must" });
    expect(JSON.parse(readFileSync(join(out, "badge.json"), "utf8"))).toMatchObject({ schemaVersion: 1, label: "aw-provider" });
  });

  it("times each testcase by the calls that judged its clause, and each suite by the run", () => {
    const report = readReport(out);
    const judged = report.clauses.filter((c) => c.status === "pass" || c.status === "fail");
    expect(judged.length).toBeGreaterThan(5);
    for (const c of judged) expect(c.durationMs, c.id).toBeGreaterThan(0);
    const xml = readFileSync(join(out, "report.xml"), "utf8");
    for (const c of judged) expect(xml).toMatch(new RegExp(`name="${c.id} — [^"]*" time="${((c.durationMs ?? 0) / 1000).toFixed(3).replace(".", "\\.")}"`));
    const run = ((Date.parse(report.endedAt) - Date.parse(report.startedAt)) / 1000).toFixed(3);
    expect([...xml.matchAll(/<testsuite [^>]*time="([^"]*)"/g)].map((m) => m[1])).toEqual(expect.arrayContaining([run]));
    expect([...xml.matchAll(/<testsuite [^>]*time="([^"]*)"/g)].every((m) => m[1] === run)).toBe(true);
  });

  it("re-renders a saved report in any format", async () => {
    const again = temp();
    const result = await runCli(["report", join(out, "report.json"), "--format", "html,tap", "--out", again]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(again, "report.html"), "utf8")).toBe(readFileSync(join(out, "report.html"), "utf8"));
    expect(readFileSync(join(again, "report.tap"), "utf8")).toBe(readFileSync(join(out, "report.tap"), "utf8"));
    const printed = await runCli(["report", join(out, "report.json")]);
    expect(printed.stdout).toMatch(/^WARN  SHOULD provider\/robustness\/rejects-duplicate-keys/m);
  });

  it("counts SHOULD failures with --level should", async () => {
    const result = await runCli(["report", join(out, "report.json"), "--level", "should"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/not conformant \(1 clause failed\)/);
  });

  it("accepts a listed failure as expected, and fails the run on a stale entry", async () => {
    const dir = temp();
    const ok = join(dir, "expected.txt");
    writeFileSync(ok, "# known: the fake ignores duplicate keys\nprovider/robustness/rejects-duplicate-keys\n");
    const accepted = await runCli(["report", join(out, "report.json"), "--level", "should", "--expected-failures", ok]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(/^XFAIL SHOULD provider\/robustness\/rejects-duplicate-keys/m);
    const stale = join(dir, "stale.txt");
    writeFileSync(stale, "provider/robustness/rejects-duplicate-keys\nprovider/robustness/no-hang\n");
    const result = await runCli(["report", join(out, "report.json"), "--expected-failures", stale]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/stale expectation: .*provider\/robustness\/no-hang is listed as an expected failure but passed/);
  });

  it("refuses an unknown format before doing anything, and a file that is not a report", async () => {
    expect((await runCli(["report", join(out, "report.json"), "--format", "pdf"])).code).toBe(2);
    expect((await runCli(["report", join(out, "badge.json")])).code).toBe(2);
  });
});

const REFERENCE = join(ROOT, "examples/reference-provider/provider.mjs");
const MUST_SKIPPED = [
  "provider/transport/within-budget", "provider/validate-config/accepts-valid-config", "provider/validate-config/ok-shape", "provider/validate-config/rejects-invalid-config",
  "provider/invoke/echoes-input-digest", "provider/invoke/effect-count", "provider/invoke/effect-shape", "provider/invoke/effect-admitted", "provider/invoke/reason-code-form",
  "provider/invoke/block-before-tool", "provider/invoke/replace-result-after-tool", "provider/invoke/replace-result-once", "provider/invoke/replace-result-text",
  "provider/invoke/replace-result-needs-projection", "provider/invoke/block-text", "provider/invoke/text-only-on-block-or-replace",
];

describe("an incomplete run from the command line", () => {
  let dir = "";
  let run = { code: -1, stdout: "", stderr: "" };
  let deselected = "";
  let deselectedCode = -1;

  // The reference provider with the default configuration {}, which it rejects: sixteen MUST clauses
  // (no invocation can be sent, no invalid configuration was given) cannot be judged. The same run
  // with those deselected by the user is complete.
  beforeAll(async () => {
    dir = temp();
    deselected = temp();
    const [first, second] = await Promise.all([
      runCli(["run", "--protocol", "provider", "--reporter", "console,json,junit,tap,markdown,html,badge", "--out", dir, REFERENCE]),
      runCli(["run", "--protocol", "provider", ...MUST_SKIPPED.flatMap((id) => ["--skip", id]), "--reporter", "json", "--out", deselected, REFERENCE]),
    ]);
    run = first;
    deselectedCode = second.code;
  }, 60_000);

  it("exits 4 with the verdict incomplete and the skipped MUST clauses grouped by reason", () => {
    expect(run.code).toBe(4);
    const report = readReport(dir);
    expect(kitSchema("report.schema.json")(report)).toBe(true);
    expect(report.summary).toMatchObject({ verdict: "incomplete", conformant: false, failed: 0 });
    expect(report.summary.incomplete.flatMap((g) => g.clauses).sort()).toEqual([...MUST_SKIPPED].sort());
    for (const group of report.summary.incomplete) expect(group.reason).not.toBe("");
  });

  it("says so at the top of the console, with each reason, in its summary line and at its end; no PASS or SKIP line without --verbose", () => {
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[1]).toBe("INCOMPLETE — 16 MUST clauses could not be judged; the run cannot be conformant until they are:");
    const reasons = lines.slice(2, 4).join("\n");
    expect(reasons).toContain("give a configuration the Provider accepts with --config-json or --config-file (15 clauses)");
    expect(reasons).toContain("no --invalid-config-file was given: add a file of configurations the Provider must reject (a JSON array of objects) (1 clause)");
    expect(run.stdout).toMatch(/^71 clauses: 32 passed, 0 failed, 39 skipped — incomplete \(16 MUST clauses could not be judged\)$/m);
    expect(lines.at(-1)).toBe("To make the run complete: 2 reasons left 16 MUST clauses unjudged (listed above)");
    expect(run.stdout).not.toMatch(/^(PASS|SKIP|N\/A) /m);
  });

  it("says so in every file format", () => {
    const read = (file: string): string => readFileSync(join(dir, file), "utf8");
    expect(read("report.xml")).toContain('<property name="verdict" value="incomplete"/>');
    expect(read("report.xml")).toMatch(/<testsuites [^>]*failures="1"/);
    expect(read("report.xml")).toContain('<failure message="run is incomplete: 16 MUST clauses could not be judged" type="incomplete">');
    expect(read("report.tap")).toMatch(/^not ok 72 - run incomplete$/m);
    expect(read("report.tap")).toMatch(/^# INCOMPLETE — 16 MUST clauses could not be judged:$/m);
    expect(read("report.md").split("\n")[0]).toBe("## ⏸️ Incomplete (not a pass): provider");
    expect(read("report.html")).toContain('data-verdict="incomplete">Incomplete<small>');
    expect(read("report.html")).toContain('<section class="box incomplete" id="incomplete">');
    expect(JSON.parse(read("badge.json"))).toEqual({ schemaVersion: 1, label: "aw-provider", message: "incomplete", color: "lightgrey" });
    expect(read("badge.svg")).toContain(">incomplete<");
  });

  it("re-renders and re-judges a saved incomplete report; --level adds the SHOULD and MAY skips", async () => {
    const should = temp();
    const [again, judged] = await Promise.all([
      runCli(["report", join(dir, "report.json")]),
      runCli(["report", join(dir, "report.json"), "--level", "should", "--format", "json", "--out", should]),
    ]);
    expect(again.code).toBe(4);
    expect(again.stdout).toContain("INCOMPLETE — 16 MUST clauses could not be judged");
    expect(judged.code).toBe(4);
    const ids = readReport(should).summary.incomplete.flatMap((g) => g.clauses);
    expect(ids).toHaveLength(38);
    expect(ids).toEqual(expect.arrayContaining([...MUST_SKIPPED, "provider/robustness/rejects-duplicate-keys"]));
    expect(ids).not.toContain("provider/robustness/rejects-mismatched-digest");
  });

  it("is complete when the user deselects the clauses it cannot judge; --level should then makes it incomplete", async () => {
    expect(deselectedCode).toBe(0);
    const report = readReport(deselected);
    expect(report.summary).toMatchObject({ verdict: "conformant", deselected: 16, incomplete: [] });
    expect(report.summary.byLevel.SHOULD.skipped).toBeGreaterThan(0);
    const [should, all] = await Promise.all(["should", "all"].map((level) => runCli(["report", join(deselected, "report.json"), "--level", level])));
    expect(should?.code).toBe(4);
    expect(should?.stdout).toMatch(/— incomplete \(22 SHOULD clauses could not be judged\)$/m);
    expect(all?.stdout).toMatch(/— incomplete \(22 SHOULD and 1 MAY clauses could not be judged\)$/m);
  });
});

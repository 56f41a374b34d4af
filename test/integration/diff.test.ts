/**
 * `awp-conformance diff` and `run --baseline` from the built command line. Two narrowed runs
 * of the mock provider (the envelope clauses and one SHOULD clause): clean, then with three
 * faults and --baseline the clean report. Every other test diffs their report.json files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import type { RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";
import type { ReportDiff } from "../../src/core/report/diff-types.js";
import { readReport, ROOT, runCli, useTempDirs, type CliResult } from "./cli.js";

const MOCK = join(ROOT, "dist/src/mocks/provider.js");
const SELECTION = ["--clause", "provider/envelope", "--clause", "provider/robustness/rejects-unknown-field"];
const RUN = ["run", "--protocol", "provider", ...SELECTION, "--config-file", join(ROOT, "test/fakes/provider-lean-config.json"), "--quiet"];
/** What the faults break: two MUST clauses and one SHOULD clause. */
const FAULTS = ["--fault", "wrong-request-id", "--fault", "wrong-api-version", "--fault", "accept-unknown-fields"];
const REGRESSED = ["provider/envelope/echoes-api-version", "provider/envelope/echoes-request-id", "provider/robustness/rejects-unknown-field"];

const temp = useTempDirs("awp-diff-");
let clean = "";
let faulted = "";
let baselineRun: CliResult;

beforeAll(async () => {
  clean = temp();
  faulted = temp();
  const first = await runCli([...RUN, "--reporter", "json", "--out", clean, MOCK]);
  expect(first.code, first.stderr).toBe(0);
  baselineRun = await runCli([...RUN, "--reporter", "console,json", "--baseline", join(clean, "report.json"), "--out", faulted, MOCK, "--", ...FAULTS]);
}, 60_000);

describe("run --baseline", () => {
  it("prints the diff after the run's summary, writes diff.md and diff.json beside the report, and exits 1 on the regressions", () => {
    expect(baselineRun.code, baselineRun.stderr).toBe(1);
    const out = baselineRun.stdout;
    expect(out.indexOf("Compared with the baseline")).toBeGreaterThan(out.search(/\d+ clauses: .* not conformant/));
    expect(out).toMatch(/^3 regressed \(2 counted at --level must\)$/m);
    const diff = JSON.parse(readFileSync(join(faulted, "diff.json"), "utf8")) as ReportDiff;
    expect(kitSchema("diff.schema.json")(diff)).toBe(true);
    expect(diff.changes.filter((c) => c.regression).map((c) => c.id).sort()).toEqual(REGRESSED);
    expect(diff.new.file).toBe(join(faulted, "report.json"));
    expect(readFileSync(join(faulted, "diff.md"), "utf8")).toMatch(/^## ❌ Regressed: 3 regressed/);
    // The run's own report is as without a baseline.
    expect(readReport(faulted).summary.verdict).toBe("not-conformant");
  });
});

describe("awp-conformance diff", () => {
  it("a report against itself: exit 0, nothing changed", async () => {
    const result = await runCli(["diff", join(clean, "report.json"), join(clean, "report.json")]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^nothing changed \(\d+ clauses the same\)$/m);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(4);
  });

  it("the clean run against the faulted one: exit 1, one line naming each regressed clause", async () => {
    const result = await runCli(["diff", join(clean, "report.json"), join(faulted, "report.json")]);
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stdout.split("\n").filter((l) => l.startsWith("REGRESSED"));
    expect(lines.map((l) => l.split(/\s+/)[2]?.replace(/:$/, "")).sort()).toEqual(REGRESSED);
    expect(result.stdout).toMatch(/^regressed: 2 clauses at --level must \(exit 1\)$/m);
  });

  it("writes the formats asked for into --out", async () => {
    const out = temp();
    const result = await runCli(["diff", join(clean, "report.json"), join(faulted, "report.json"), "--format", "markdown,json", "--out", out, "--level", "should"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const diff = JSON.parse(readFileSync(join(out, "diff.json"), "utf8")) as ReportDiff;
    expect([diff.level, diff.counts.counted]).toEqual(["should", 3]);
    expect(readFileSync(join(out, "diff.md"), "utf8")).toContain("| ❌ regressed | SHOULD | provider/robustness/rejects-unknown-field |");
  });

  it("a SHOULD regression alone exits 0 at --level must and 1 at --level should (or when NEW was judged at should)", async () => {
    const old = readReport(clean);
    const bad = readReport(faulted).clauses.find((c) => c.id === "provider/robustness/rejects-unknown-field");
    const clauses = old.clauses.map((c) => (c.id === bad?.id ? bad : c));
    const onlyShould: RunReport = { ...old, clauses, summary: summarize(clauses, old.summary.deselected) };
    const file = join(temp(), "report.json");
    writeFileSync(file, JSON.stringify(onlyShould));
    const must = await runCli(["diff", join(clean, "report.json"), file]);
    expect([must.code, must.stdout.match(/^.*rejects-unknown-field.*$/m)?.[0]]).toEqual([0, expect.stringMatching(/^REGRESSED +SHOULD .*\(not counted: SHOULD at --level must\)$/)]);
    expect((await runCli(["diff", join(clean, "report.json"), file, "--level", "should"])).code).toBe(1);
    // Without --level, the level NEW was judged at counts.
    writeFileSync(file, JSON.stringify({ ...onlyShould, summary: summarize(clauses, old.summary.deselected, { level: "should" }) }));
    expect((await runCli(["diff", join(clean, "report.json"), file])).code).toBe(1);
  });

  it("unusable input exits 2 and says why: another protocol, not a report, a missing file", async () => {
    const agent = join(ROOT, "test/fixtures/reports/agent-cli-sample.json");
    const protocols = await runCli(["diff", join(clean, "report.json"), agent]);
    expect([protocols.code, protocols.stderr]).toEqual([2, expect.stringMatching(/is of the provider protocol and NEW \(.*agent-cli-sample\.json\) of agent-cli: compare two runs of one protocol \[usage\]/)]);
    const notReport = await runCli(["diff", join(ROOT, "package.json"), join(clean, "report.json")]);
    expect([notReport.code, notReport.stderr]).toEqual([2, expect.stringMatching(/package\.json: the document lacks the required property "reportVersion" \[usage\]/)]);
    const missing = await runCli(["diff", "nope.json", join(clean, "report.json")]);
    expect([missing.code, missing.stderr]).toEqual([2, "awp-conformance: OLD report nope.json: no such file [usage]\n"]);
  });

  it("run --baseline of another protocol stops before the first launch", async () => {
    const out = temp();
    const result = await runCli(["run", "--protocol", "agent-cli", "--baseline", join(clean, "report.json"), "--out", out, MOCK]);
    expect([result.code, result.stderr]).toEqual([2, expect.stringMatching(/^awp-conformance: --baseline .*report\.json is of the provider protocol and this run of agent-cli: compare two runs of one protocol \[usage\]\n$/)]);
  });
});

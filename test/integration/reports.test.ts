import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readReport, ROOT, runCli, useTempDirs } from "./cli.js";

const FAKE = join(ROOT, "test/fakes/provider-fake.mjs");
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
    expect(JSON.parse(readFileSync(join(out, "badge.json"), "utf8"))).toMatchObject({ schemaVersion: 1, label: "awp-conformance" });
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

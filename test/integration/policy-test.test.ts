import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { failing, readReport, runCli, useTempDirs, type CliResult } from "./cli.js";

const CASES = "examples/reference-provider/policy-tests.yaml";
const REFERENCE = "examples/reference-provider/provider.mjs";
const FAKE = "dist/src/mocks/provider.js";
const BLOCK_CASE = "policy-test/policy-tests/a listed tool is blocked before it runs";
const temp = useTempDirs("awp-policy-test-");

describe("awp-conformance policy-test (built CLI)", () => {
  const out = { reference: temp(), wrong: temp(), invalid: temp() };
  let reference: CliResult;
  let wrong: CliResult;
  let invalid: CliResult;

  // The three runs share the machine: started together, they cost about the time of one.
  beforeAll(async () => {
    [reference, wrong, invalid] = await Promise.all([
      runCli(["policy-test", CASES, REFERENCE, "--out", out.reference, "--quiet", "--reporter", "console,json,junit,tap,markdown,html,badge"]),
      runCli(["policy-test", CASES, FAKE, "--out", out.wrong, "--quiet", "--", "--fault", "wrong-decision"]),
      // Every effect gets an unknown field: the block case's decision still matches, its response is protocol-invalid.
      runCli(["policy-test", CASES, FAKE, "--out", out.invalid, "--quiet", "--case", "a listed tool is blocked*", "--", "--fault", "effect-extra-field"]),
    ]);
  }, 60_000);

  it("passes every case of the reference provider's file (exit 0)", () => {
    expect(reference.stderr).toBe("");
    expect(reference.code).toBe(0);
    const report = readReport(out.reference);
    expect(report.protocol).toBe("policy-test");
    expect(report.summary).toMatchObject({ total: 10, passed: 10, failed: 0, verdict: "conformant" });
    expect(report.clauses.map((c) => c.id)).toContain("policy-test/policy-tests/other tools are only observed/Read");
    expect(reference.stdout).toContain("10 cases: 10 passed, 0 failed");
    // Titled and worded as policy tests, in every format.
    expect(readFileSync(join(out.reference, "report.html"), "utf8")).toContain("<h1>Policy test report · policy-test</h1>");
    expect(readFileSync(join(out.reference, "report.md"), "utf8").split("\n")[0]).toBe("## ✅ Policy tests pass: policy-test");
  });

  it("writes one JUnit testcase per case, and every other reporter's file", () => {
    const xml = readFileSync(join(out.reference, "report.xml"), "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(10);
    // Each case timed by its call: the testcase time is the call's duration, in seconds.
    const report = readReport(out.reference);
    for (const c of report.clauses) expect(c.durationMs, c.id).toBeGreaterThan(0);
    expect([...xml.matchAll(/<testcase [^>]*time="([^"]*)"/g)].map((m) => m[1])).toEqual(report.clauses.map((c) => ((c.durationMs ?? 0) / 1000).toFixed(3)));
    expect(xml).toContain('<testsuite name="policy-test/policy-tests" tests="10" failures="0"');
    expect(readFileSync(join(out.reference, "report.tap"), "utf8")).toMatch(/^1\.\.10$/m);
    expect(readFileSync(join(out.reference, "report.md"), "utf8")).toContain("policy-test");
    expect(readFileSync(join(out.reference, "report.html"), "utf8")).toContain("a listed tool is blocked before it runs");
    expect(readFileSync(join(out.reference, "badge.svg"), "utf8")).toContain("<svg");
  });

  it("fails exactly the cases a wrong decision breaks, with request, response and difference (exit 1)", () => {
    expect(wrong.code).toBe(1);
    const report = readReport(out.wrong);
    expect(failing(report)).toEqual([BLOCK_CASE]);
    const finding = report.clauses.find((c) => c.id === BLOCK_CASE)?.findings[0];
    expect(finding).toMatchObject({ message: "expected block, the Provider requested observe", seen: "observe (reason_code tool_seen)", requestId: "case-1" });
    expect(finding?.expected).toMatch(/^block \(reason_code tool_policy/);
    expect(finding?.wire?.map((w) => w.stream)).toEqual(expect.arrayContaining(["stdin", "stdout"]));
    expect(finding?.reproduce).toMatch(/--fault wrong-decision < .*requests\/\d+-case-1\.json$/);
  });

  it("saves a report that `report` re-renders, with the same verdict", async () => {
    const again = await runCli(["report", join(out.wrong, "report.json"), "--format", "junit"]);
    expect(again.code).toBe(1);
    expect(readFileSync(join(out.wrong, "report.xml"), "utf8").match(/<testcase /g)).toHaveLength(10);
  });

  it("never passes a case on a protocol-invalid response, even when the decision matches", () => {
    expect(invalid.code).toBe(1);
    const report = readReport(out.invalid);
    expect(report.summary).toMatchObject({ total: 1, failed: 1, deselected: 9 });
    const messages = report.clauses[0]?.findings.map((f) => f.message) ?? [];
    expect(messages.join("\n")).toMatch(/its decision matches, but a policy test never passes on a protocol-invalid response\) breaks provider\/invoke\/effect-shape/);
  });

  it("fails a case whose configuration the Provider rightly refuses as the case's, quoting the answer: no protocol breach", async () => {
    const dir = temp();
    const file = join(dir, "refused.yaml");
    writeFileSync(file, "config: { nope: 1 }\ncases:\n  - { name: refused config, tool: Bash, expect: observe }\n");
    const result = await runCli(["policy-test", file, REFERENCE, "--out", dir, "--quiet", "--reporter", "json"]);
    expect(result.code).toBe(1);
    const findings = readReport(dir).clauses[0]?.findings ?? [];
    expect(findings.map((f) => f.message)).toEqual([
      "the Provider refused the case's configuration (validate_config answered with error_code invalid_config), so no Host would invoke with it: give a configuration the Provider accepts (config: in the case or the file, or --config-json/--config-file)",
    ]);
    expect(findings[0]?.seen).toBe('{"api_version":"aw-provider/v1alpha1","request_id":"validate-1","status":"error","error_code":"invalid_config"}');
  });

  it("refuses a case naming an event its operation does not declare: exit 2 after describe, no case sent", async () => {
    const dir = temp();
    const file = join(dir, "wrong-event.yaml");
    const record = join(dir, "record.jsonl");
    writeFileSync(file, "cases:\n  - { name: ok, tool: Bash, expect: observe }\n  - { name: redact before the tool, operation: redact, tool: Bash, expect: allow }\n");
    const result = await runCli(["policy-test", file, FAKE, "--out", dir, "--quiet", "--config-json", '{"blocked_tools":[]}', "--", "--record", record]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`awp-conformance: ${file}: case "redact before the tool": operation redact does not declare the event tool.before (it declares tool.after): give event: or operation: that it declares [usage]\n`);
    const methods = readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { event: string; method?: string }).filter((e) => e.event === "request").map((e) => e.method);
    expect(methods).toEqual(["describe"]);
  });

  it("refuses a malformed case file with one line and exit 2, before running anything", async () => {
    const dir = temp();
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "cases:\n  - name: x\n    tool: Bash\n    expect: {decision: allow, reason_code: r}\n");
    const result = await runCli(["policy-test", file, REFERENCE, "--out", dir, "--quiet"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`awp-conformance: ${file}: /cases/0/expect: reason_code goes with block or observe, not allow [usage]\n`);
  });
});

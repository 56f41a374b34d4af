import { beforeAll, describe, expect, it } from "vitest";
import type { AdmissionReport } from "../../src/core/provider/admission-report.js";
import { runCli, type CliResult } from "./cli.js";

// `awp-conformance admit`, run built, against the reference provider and the fake. All runs
// start together (each is two short provider calls), then the tests read their results.
const REF = "examples/reference-provider/provider.mjs";
const FAKE = "dist/src/mocks/provider.js";
const CONFIG = ["--config-file", "examples/reference-provider/valid-config.json"];

const RUNS = {
  supported: [REF, ...CONFIG, "--step", "tool.before:observe,block/on_error=block", "--step", "tool.after:observe@check", "--step", "tool.after:replace_result@redact/tools=bash"],
  rejected: [REF, ...CONFIG, "--json", "--step", "tool.before:replace_result@check", "--step", "tool.after:block@check", "--step", "session.start:observe", "--step", "tool.before:observe"],
  noConfig: [REF, "--step", "tool.before:block"],
  inadmissible: [FAKE, ...CONFIG, "--step", "tool.before:ask@approve", "--step", "tool.before:block@approve", "--", "--fault", "inadmissible-operation"],
  invalidDescribe: [FAKE, ...CONFIG, "--step", "tool.before:block", "--", "--fault", "operation-extra-field"],
  malformed: [REF, ...CONFIG, "--step", "tool.before:observe", "--step", "tool.before"],
} as const;

const results = {} as Record<keyof typeof RUNS, CliResult>;

beforeAll(async () => {
  const entries = await Promise.all(Object.entries(RUNS).map(async ([name, args]) => [name, await runCli(["admit", ...args])] as const));
  for (const [name, result] of entries) results[name as keyof typeof RUNS] = result;
}, 60_000);

describe("awp-conformance admit", () => {
  it("admits the reference provider's supported steps (exit 0), saying what the Adapter must also support", () => {
    const { code, stdout } = results.supported;
    expect(stdout).toContain("step 1 tool.before:observe,block/on_error=block: admitted (operation check)");
    expect(stdout).toContain("step 2 tool.after:observe@check: admitted (operation check)");
    expect(stdout).toContain("step 3 tool.after:replace_result@redact/tools=bash: admitted (operation redact)");
    expect(stdout).toContain("admitted on the provider side; the Adapter must also support tool.before with observe, block; blocking, for on_error: block");
    expect(stdout).toContain("3 of 3 steps admitted");
    expect(code).toBe(0);
  });

  it("rejects an undeclared effect, a block after execution and an event outside the tool events with the exact reason (exit 1, --json)", () => {
    const { code, stdout } = results.rejected;
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as AdmissionReport;
    expect(report.admitted).toBe(false);
    expect(report.describe.operations.map((op) => op.name)).toEqual(["check", "redact"]);
    expect(report.configuration).toEqual({ given: true, accepted: true });
    expect(report.steps.map((s) => [s.step, s.admitted, s.reasons])).toEqual([
      ["tool.before:replace_result@check", false, ["replace_result is not admitted on tool.before (only observe, block)", "effect replace_result is not declared by operation check (it declares observe, block)"]],
      ["tool.after:block@check", false, ["block after execution (tool.after: block) is rejected: the call has already run"]],
      ["session.start:observe", false, ["enabled event session.start is outside the two tool events (tool.before, tool.after) the profile executes"]],
      ["tool.before:observe", true, []],
    ]);
  });

  it("without a configuration the provider accepts, says the validation is missing", () => {
    expect(results.noConfig.stdout).toContain("rejected: missing configuration validation: no configuration was given and validate_config did not accept {} (error_code invalid_config)");
    expect(results.noConfig.code).toBe(1);
  });

  it("names the fake's inadmissible operation and why", () => {
    const { code, stdout } = results.inadmissible;
    expect(stdout).toContain("approve [tool.before, permission.request: ask, replace_input]");
    expect(stdout).toContain("step 1 tool.before:ask@approve: rejected: ask is rejected: the profile has no interactive approval");
    expect(stdout).toContain("step 2 tool.before:block@approve: rejected: effect block is not declared by operation approve (it declares ask, replace_input)");
    expect(code).toBe(1);
  });

  it("a protocol-invalid describe is a candidate failure: exit 1 naming the failed clause", () => {
    const { code, stdout } = results.invalidDescribe;
    expect(stdout).toContain("protocol: fails provider/describe/operation-shape");
    expect(stdout).toContain("rejected: no checked description: the describe answer failed provider/describe/operation-shape");
    expect(code).toBe(1);
  });

  it("a malformed --step is a usage error (exit 2) on one line, before the provider runs", () => {
    const { code, stdout, stderr } = results.malformed;
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(/^awp-conformance: --step "tool.before": no EVENT: before the effects \(expected EVENT:EFFECT/)]);
  });
});

import { describe, expect, it } from "vitest";
import { admitSteps, type AdmissionStep, type DeclaredOperation, type ProviderEvidence, type StepVerdict } from "../../../src/core/provider/admission.js";

// The reference provider's description (examples/reference-provider/policy.mjs).
const CHECK: DeclaredOperation = { name: "check", events: ["tool.before", "tool.after"], effects: ["observe", "block"] };
const REDACT: DeclaredOperation = { name: "redact", events: ["tool.after"], effects: ["observe", "replace_result"] };
const EVIDENCE: ProviderEvidence = { operations: [CHECK, REDACT], validation: { given: true, accepted: true } };

const one = (step: AdmissionStep, evidence: ProviderEvidence = EVIDENCE, adapter = {}): StepVerdict => admitSteps(evidence, [step], adapter)[0] as StepVerdict;
const rejected = (verdict: StepVerdict): string[] => {
  expect(verdict.admitted).toBe(false);
  return verdict.reasons;
};

describe("admission table: one test per row of provider-protocol.md 'Offline admission'", () => {
  it("tool.before: observe, block: accepted when the operation and the Adapter support every effect", () => {
    const verdict = one({ event: "tool.before", effects: ["observe", "block"] });
    expect(verdict).toMatchObject({ admitted: true, operation: "check", reasons: [] });
    // The kit has no Adapter evidence: what the Adapter must also support is said.
    expect(verdict.adapterNeeds).toEqual(["tool.before with observe, block"]);
    expect(one({ event: "tool.before", effects: ["observe", "block"] }, EVIDENCE, { effects: { "tool.before": ["observe", "block"] } }).adapterNeeds).toEqual([]);
    expect(rejected(one({ event: "tool.before", effects: ["block"] }, EVIDENCE, { effects: { "tool.before": ["observe"] } }))).toEqual(["the Adapter does not support block on tool.before"]);
  });

  it("tool.after: observe: accepted when both sides support it", () => {
    expect(one({ event: "tool.after", effects: ["observe"] })).toMatchObject({ admitted: true, operation: "check", adapterNeeds: ["tool.after with observe"] });
    expect(one({ event: "tool.after", effects: ["observe"], operation: "redact" })).toMatchObject({ admitted: true, operation: "redact" });
  });

  it("tool.after: replace_result: one structured step, with trusted text replacement on the Adapter side", () => {
    const verdict = one({ event: "tool.after", effects: ["replace_result"] });
    expect(verdict).toMatchObject({ admitted: true, operation: "redact" });
    expect(verdict.adapterNeeds).toEqual(["tool.after with replace_result", "trusted text replacement, supplying event.tool.result_projection"]);
    expect(rejected(one({ event: "tool.after", effects: ["replace_result"] }, EVIDENCE, { effects: { "tool.after": ["observe"] } }))).toEqual(["the Adapter does not support replace_result on tool.after"]);
    expect(rejected(one({ event: "tool.before", effects: ["replace_result"] }))).toContain("replace_result is not admitted on tool.before (only observe, block)");
  });

  it("ask, input replacement or a block after execution: rejected", () => {
    const ops: ProviderEvidence = { ...EVIDENCE, operations: [{ name: "prompt", events: ["tool.before", "tool.after"], effects: ["ask", "replace_input", "block"] }] };
    expect(rejected(one({ event: "tool.before", effects: ["ask"] }, ops))).toEqual(["ask is rejected: the profile has no interactive approval"]);
    expect(rejected(one({ event: "tool.before", effects: ["replace_input"] }, ops))).toEqual(["input replacement (replace_input) is rejected: argument rewrites are not supported"]);
    expect(rejected(one({ event: "tool.after", effects: ["block"], operation: "check" }))).toEqual(["block after execution (tool.after: block) is rejected: the call has already run"]);
  });

  it("an enabled event outside the two tool events: rejected, including when required: false", () => {
    const ops: ProviderEvidence = { ...EVIDENCE, operations: [{ name: "audit", events: ["session.start"], effects: ["observe"] }] };
    expect(rejected(one({ event: "session.start", effects: ["observe"] }, ops))).toEqual(["enabled event session.start is outside the two tool events (tool.before, tool.after) the profile executes"]);
    expect(rejected(one({ event: "session.start", effects: ["observe"], required: false }, ops))[0]).toMatch(/outside the two tool events .*rejected even with required: false/);
    expect(rejected(one({ event: "tool.during", effects: ["observe"] }))).toEqual(["unknown event tool.during: not one of the 16 event names, and the profile executes only tool.before and tool.after"]);
  });

  it("a guard such as security.violation: rejected, final-check ordering is not implemented", () => {
    const ops: ProviderEvidence = { ...EVIDENCE, operations: [{ name: "guard", events: ["security.violation"], effects: ["block"] }] };
    expect(rejected(one({ event: "security.violation", effects: ["block"] }, ops))[0]).toBe("security.violation is a guard: rejected, this profile does not implement final-check ordering");
  });

  it("event and step match.tools: accepted for standard, * and exact native selectors; patterns rejected", () => {
    expect(one({ event: "tool.before", effects: ["block"], tools: ["*", "bash", "file_read", "file_write", "native:qwenpaw:Shell"] }).admitted).toBe(true);
    expect(rejected(one({ event: "tool.before", effects: ["block"], tools: ["native:qwenpaw:Sh*"] }))[0]).toMatch(/^tool selector native:qwenpaw:Sh\* is not/);
    expect(rejected(one({ event: "tool.before", effects: ["block"], tools: ["shell"] }))[0]).toMatch(/no glob or regex patterns/);
  });

  it("a guarantee beyond native_hook: rejected", () => {
    expect(one({ event: "tool.before", effects: ["block"], guarantee: "native_hook" }).admitted).toBe(true);
    expect(rejected(one({ event: "tool.before", effects: ["block"], guarantee: "final_guard" }))).toEqual(["guarantee final_guard is beyond native_hook: rejected"]);
  });

  it("a missing Provider description, operation, capability or configuration validation: rejected with an explicit reason", () => {
    const noDescription: ProviderEvidence = { describeProblem: "describe was not answered ok (error_code not_ready)", validation: { given: true, accepted: true } };
    expect(rejected(one({ event: "tool.before", effects: ["block"] }, noDescription))).toEqual(["no checked description: describe was not answered ok (error_code not_ready)"]);
    const afterOnly: ProviderEvidence = { ...EVIDENCE, operations: [REDACT] };
    expect(rejected(one({ event: "tool.before", effects: ["observe"] }, afterOnly))).toEqual(["no operation takes tool.before (declared: redact [tool.after])"]);
    expect(rejected(one({ event: "tool.before", effects: ["block"], operation: "scan" }))).toEqual(["the Provider declares no operation scan (it declares check, redact)"]);
    expect(rejected(one({ event: "tool.before", effects: ["observe"], operation: "redact" }))).toEqual(["operation redact does not take tool.before (it declares tool.after)"]);
    expect(rejected(one({ event: "tool.after", effects: ["replace_result"], operation: "check" }))).toEqual(["effect replace_result is not declared by operation check (it declares observe, block)"]);
    expect(rejected(one({ event: "tool.after", effects: ["observe", "replace_result", "block"] }))).toContain(
      "no operation that takes tool.after declares every effect observe, replace_result, block (check: observe, block; redact: observe, replace_result)",
    );
    const refused: ProviderEvidence = { ...EVIDENCE, validation: { given: true, accepted: false, detail: "error_code invalid_config" } };
    expect(rejected(one({ event: "tool.before", effects: ["block"] }, refused))).toEqual(["missing configuration validation: validate_config did not accept the given configuration (error_code invalid_config)"]);
    const none: ProviderEvidence = { ...EVIDENCE, validation: { given: false, accepted: false, detail: "error_code invalid_config" } };
    expect(rejected(one({ event: "tool.before", effects: ["block"] }, none))[0]).toMatch(/^missing configuration validation: no configuration was given .*--config-json or --config-file$/);
    expect(one({ event: "tool.before", effects: ["block"] }, { ...EVIDENCE, validation: { given: false, accepted: true } }).admitted).toBe(true);
  });

  it("a disabled step needs no discovery evidence", () => {
    const verdict = one({ event: "session.start", effects: ["ask"], enabled: false }, { describeProblem: "x", validation: { given: false, accepted: false } });
    expect(verdict).toMatchObject({ admitted: true, note: "disabled: a disabled step needs no evidence" });
  });
});

describe("PostTool text replacement: order within tool.after", () => {
  const observe: AdmissionStep = { event: "tool.after", effects: ["observe"], operation: "check" };
  const replace: AdmissionStep = { event: "tool.after", effects: ["replace_result"] };

  it("earlier observers are kept: replace_result as the last enabled tool.after step is admitted", () => {
    const verdicts = admitSteps(EVIDENCE, [observe, { event: "tool.before", effects: ["block"] }, replace]);
    expect(verdicts.map((v) => v.admitted)).toEqual([true, true, true]);
  });

  it("replace_result that is not the last enabled step, and the step after it, are rejected", () => {
    const [first, second] = admitSteps(EVIDENCE, [replace, observe]);
    expect(first?.reasons).toEqual(["replace_result is not the last enabled tool.after step (step 2 follows it)"]);
    expect(second?.reasons).toEqual(["an enabled tool.after step after the replacement step 1 is rejected"]);
  });

  it("a second replacement is rejected", () => {
    const [first, second] = admitSteps(EVIDENCE, [replace, replace]);
    expect(first?.admitted).toBe(false);
    expect(second?.reasons).toEqual(["a second replacement: step 1 already requests replace_result on tool.after (one replacement per event)"]);
  });

  it("tool.before steps and disabled steps do not count", () => {
    const verdicts = admitSteps(EVIDENCE, [replace, { event: "tool.before", effects: ["observe"] }, { ...observe, enabled: false }]);
    expect(verdicts.every((v) => v.admitted)).toBe(true);
  });
});

describe("on_error rules", () => {
  const before = (onError: string, adapter = {}): StepVerdict => one({ event: "tool.before", effects: ["block"], onError }, EVIDENCE, adapter);
  const after = (onError: string, adapter = {}): StepVerdict => one({ event: "tool.after", effects: ["observe"], onError }, EVIDENCE, adapter);

  it("tool.before: report; block when the Adapter supports blocking; nothing else", () => {
    expect(before("report")).toMatchObject({ admitted: true, adapterNeeds: ["tool.before with block"] });
    expect(before("block").adapterNeeds).toContain("blocking, for on_error: block");
    expect(rejected(before("block", { blocking: false }))).toEqual(["on_error block is rejected: the Adapter does not support blocking"]);
    expect(rejected(before("withhold_result"))).toEqual(["on_error withhold_result is rejected on tool.before (report, or block when the Adapter supports blocking)"]);
  });

  it("tool.after: report; withhold_result only when the Adapter declares it; block rejected", () => {
    expect(after("report").admitted).toBe(true);
    expect(after("withhold_result").adapterNeeds).toContain("the tool.after failure action withhold_result (declared today only by the ordinary QwenPaw resident entrypoint)");
    expect(after("withhold_result", { withholdResult: true }).adapterNeeds).toEqual(["tool.after with observe"]);
    expect(rejected(after("withhold_result", { withholdResult: false }))).toEqual(["on_error withhold_result is rejected: the Adapter does not declare that tool.after failure action"]);
    expect(rejected(after("block"))).toEqual(["on_error block is rejected on tool.after (report, or withhold_result when the Adapter declares it)"]);
  });
});

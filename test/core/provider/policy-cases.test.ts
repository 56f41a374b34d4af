import { describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { expandCases, mergeCases, type PolicyCase } from "../../../src/core/provider/policy-cases.js";
import { parseCaseFile } from "../../../src/core/provider/policy-file.js";
import { compareDecision } from "../../../src/core/provider/policy-compare.js";
import { caseRequest, planCases } from "../../../src/core/provider/policy-plan.js";
import { selectCases } from "../../../src/core/provider/policy-report.js";
import type { OperationDecl } from "../../../src/core/provider/plan.js";

const yaml = (text: string, file = "cases.yaml"): PolicyCase[] => expandCases(parseCaseFile(Buffer.from(text), file), file);
const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).exitCode).toBe(2);
    return (error as KitError).message;
  }
  throw new Error("no usage error");
};

const OPS: OperationDecl[] = [
  { name: "check", events: ["tool.before", "tool.after"], effects: ["observe", "block"] },
  { name: "redact", events: ["tool.after"], effects: ["observe", "replace_result"] },
];
const CONFIG = { value: { blocked_tools: ["x"] }, document: '{"blocked_tools":["x"]}' };

describe("policy case files: parsing and expansion", () => {
  it("applies the defaults so a case is a few lines", () => {
    const [c] = yaml("cases:\n  - name: blocks x\n    tool: x\n    expect: block\n");
    expect(c).toMatchObject({ id: "policy-test/cases/blocks x", name: "blocks x", event: "tool.before", tool: "x", nativeName: "x", input: {}, result: null, expect: { decision: "block" } });
    expect(c?.config).toBeUndefined();
  });

  it("expands a table into one case per row, rows replacing the template's fields", () => {
    const cases = yaml(`config: {blocked_tools: [x]}
cases:
  - name: t
    event: tool.after
    result: {a: 1}
    expect: observe
    table:
      - tool: Bash
      - {name: named, tool: Read, expect: {decision: block, reason_code: r1, text: "*x*"}}
      - {tool: Edit, config: {blocked_tools: []}}
`);
    expect(cases.map((c) => c.name)).toEqual(["t/Bash", "t/named", "t/Edit"]);
    expect(cases[0]).toMatchObject({ event: "tool.after", result: { a: 1 }, projection: '{"a":1}', expect: { decision: "observe" }, config: CONFIG });
    expect(cases[1]?.expect).toEqual({ decision: "block", reasonCode: "r1", text: "*x*" });
    expect(cases[2]?.config).toEqual({ value: { blocked_tools: [] }, document: '{"blocked_tools":[]}' });
  });

  it("reads JSON strictly and YAML with unique keys", () => {
    expect(yaml('{"cases":[{"name":"a","tool":"x","expect":"allow"}]}', "c.json")).toHaveLength(1);
    expect(usage(() => yaml('{"cases":[{"name":"a","name":"b","tool":"x","expect":"allow"}]}', "c.json"))).toMatch(/^c\.json: not valid JSON: .*duplicate/i);
    expect(usage(() => yaml("cases:\n  - name: a\n    tool: x\n    tool: y\n    expect: allow\n"))).toBe("cases.yaml: not valid YAML: Map keys must be unique (line 4)");
  });

  it("refuses malformed files with one line naming the file and the place", () => {
    const cases: [string, RegExp][] = [
      ["cases:\n  - name: a\n    tool: x\n    expect: blok\n", /^cases\.yaml: \/cases\/0\/expect must be one of "allow"/],
      ["cases:\n  - name: a\n    tool: x\n    expect: {decision: allow, text: x}\n", /\/cases\/0\/expect: text goes with block or replace_result, not allow/],
      ["cases:\n  - name: a\n    expect: allow\n", /\/cases\/0 lacks tool/],
      ["cases:\n  - name: a\n    tool: x\n", /\/cases\/0 lacks expect/],
      ["cases:\n  - name: a\n    tool: x\n    allowed_effects: [ask]\n    expect: allow\n", /ask not admitted at tool.before/],
      ["cases:\n  - name: a\n    tool: x\n    result: 1\n    expect: allow\n", /result is only sent on tool.after/],
      ["cases:\n  - {name: a, tool: x, expect: allow, table: [{tool: y}, {tool: y}]}\n", /two cases are named "a\/y"/],
      ["cases:\n  - {name: a, tool: x, expect: allow, input: {n: 18446744073709551616}}\n", /too large/],
      ["a: &a [x, *a]\n", /nested deeper/],
      ["cases: []\n", /\/cases must NOT have fewer than 1 items/],
    ];
    for (const [text, message] of cases) {
      const line = usage(() => yaml(text));
      expect(line).toMatch(message);
      expect(line).not.toContain("\n");
    }
  });

  it("keeps entry ids unique across files", () => {
    const one = yaml("cases:\n  - {name: a, tool: x, expect: allow}\n", "dir1/p.yaml");
    const two = yaml("cases:\n  - {name: a, tool: x, expect: allow}\n", "dir2/p.yml");
    expect(usage(() => mergeCases([one, two]))).toMatch(/same entry id \(policy-test\/p\/a\)/);
  });

  it("selects cases by name with the clause pattern language", () => {
    const cases = yaml("cases:\n  - {name: t, expect: allow, table: [{tool: a}, {tool: b}]}\n  - {name: other, tool: x, expect: allow}\n");
    expect(selectCases(cases, ["t"]).map((c) => c.name)).toEqual(["t/a", "t/b"]);
    expect(selectCases(cases, ["*/b"]).map((c) => c.name)).toEqual(["t/b"]);
    expect(selectCases(cases, ["cases/oth*"]).map((c) => c.name)).toEqual(["other"]);
    expect(selectCases(cases, [])).toHaveLength(3);
  });
});

describe("policy cases: planning against describe", () => {
  const cases = yaml(`cases:
  - {name: before, tool: x, expect: block}
  - {name: after-ambiguous, event: tool.after, tool: x, expect: observe}
  - {name: after-named, event: tool.after, operation: redact, tool: x, result: secret, expect: observe}
  - {name: undeclared, operation: nope, tool: x, expect: allow}
  - {name: not-declared-effect, operation: check, tool: x, allowed_effects: [observe], expect: allow}
`);

  it("takes the only operation of the event and the effects the profile admits", () => {
    const [plan] = planCases([cases[0]!], OPS, CONFIG);
    expect(plan).toMatchObject({ kind: "invoke", operation: "check", allowedEffects: ["observe", "block"], config: CONFIG });
    const named = planCases([cases[2]!], OPS, CONFIG)[0]!;
    expect(named).toMatchObject({ kind: "invoke", operation: "redact", allowedEffects: ["observe", "replace_result"] });
    if (named.kind !== "invoke") throw new Error("planned");
    const event = caseRequest(named, 2, 5000).event as { tool: { result_projection?: unknown; call_id: unknown } };
    expect(event.tool.result_projection).toEqual({ text: "secret", status: "success", content_origin: "tool" });
    expect(event.tool.call_id).toBe("call-3");
  });

  it("refuses an ambiguous operation with a usage error naming the candidates", () => {
    expect(usage(() => planCases([cases[1]!], OPS, CONFIG))).toBe('cases.yaml: case "after-ambiguous": check and redact both take tool.after; give operation: NAME');
  });

  it("refuses a case the Provider's description cannot take as a case-file mistake, naming it (no case fails for it)", () => {
    // A case naming an operation describe does not declare, or an event its operation does not take, was once a failed MUST case.
    expect(usage(() => planCases([cases[3]!, cases[0]!], OPS, CONFIG))).toBe(
      'cases.yaml: case "undeclared": operation nope is not one describe declares (it declares check [tool.before, tool.after]; redact [tool.after])',
    );
    const [onBefore] = yaml("cases:\n  - {name: redact before, operation: redact, tool: x, expect: allow}\n");
    expect(usage(() => planCases([onBefore!], OPS, CONFIG))).toMatch(/^cases\.yaml: case "redact before": operation redact does not declare the event tool\.before \(it declares tool\.after\)/);
    expect(usage(() => planCases([cases[0]!], [OPS[1]!], CONFIG))).toMatch(/case "before": no operation describe declares takes the event tool\.before/);
    const onlyBlock = [{ name: "check", events: ["tool.before"], effects: ["block"] }];
    expect(usage(() => planCases([cases[4]!], onlyBlock, CONFIG))).toMatch(/case "not-declared-effect": allowed_effects has observe, which operation check does not declare/);
  });

  it("refuses a case whose expected decision its allowed effects cannot carry", () => {
    const impossible = yaml(`cases:
  - {name: block not allowed, tool: x, allowed_effects: [observe], expect: block}
  - {name: observe not allowed, tool: x, allowed_effects: [block], expect: {decision: observe}}
  - {name: an error is fine, tool: x, allowed_effects: [observe], expect: error}
`);
    expect(usage(() => planCases(impossible, OPS, CONFIG))).toBe(
      'cases.yaml: case "block not allowed": expects block, but the request allows only observe, so no protocol-valid answer carries it: add block to allowed_effects, or expect error; ' +
        'cases.yaml: case "observe not allowed": expects observe, but the request allows only block, so no protocol-valid answer carries it: add observe to allowed_effects, or expect error',
    );
    expect(planCases([impossible[2]!], OPS, CONFIG)[0]).toMatchObject({ kind: "invoke", allowedEffects: ["observe"] });
  });

  it("names every mistake of the file at once, the first five in full", () => {
    const many = yaml(`cases:\n${Array.from({ length: 7 }, (_, i) => `  - {name: c${i}, operation: nope, tool: x, expect: allow}`).join("\n")}\n`);
    const message = usage(() => planCases(many, OPS, CONFIG));
    expect(message.match(/case "c\d"/g)).toEqual(["case \"c0\"", "case \"c1\"", "case \"c2\"", "case \"c3\"", "case \"c4\""]);
    expect(message).toMatch(/; and 2 more case-file mistakes$/);
  });

  it("fails every case for a describe that broke: that is the Provider's, not the file's", () => {
    expect(planCases([cases[3]!, cases[0]!], OPS, CONFIG, "describe was not answered ok")).toMatchObject([
      { kind: "fail", reason: "describe was not answered ok" },
      { kind: "fail", reason: "describe was not answered ok" },
    ]);
  });
});

describe("policy cases: comparing decisions", () => {
  const ok = (effects: unknown[]): Record<string, never> => ({ status: "ok", effects }) as never;
  const block = { type: "block", reason_code: "tool_policy", text: "x is blocked by policy" };

  it("matches each decision and reports the difference otherwise", () => {
    expect(compareDecision({ decision: "allow" }, ok([])).ok).toBe(true);
    expect(compareDecision({ decision: "allow" }, ok([{ type: "observe" }]))).toMatchObject({ ok: false, difference: "expected no effects, the Provider requested observe" });
    expect(compareDecision({ decision: "observe", reasonCode: "seen" }, ok([{ type: "observe", reason_code: "seen" }])).ok).toBe(true);
    expect(compareDecision({ decision: "observe" }, ok([])).difference).toBe("expected observe, the Provider requested no effects");
    expect(compareDecision({ decision: "observe" }, ok([{ type: "observe" }, block])).difference).toBe("expected only observe, the Provider requested block");
    expect(compareDecision({ decision: "block", reasonCode: "tool_policy", text: "*blocked*" }, ok([{ type: "observe" }, block])).ok).toBe(true);
    expect(compareDecision({ decision: "block", reasonCode: "other" }, ok([block])).difference).toBe('the block effect has reason_code "tool_policy", not other');
    expect(compareDecision({ decision: "block", text: "blocked" }, ok([block])).difference).toBe('the block effect\'s text "x is blocked by policy" does not match "blocked"');
    expect(compareDecision({ decision: "block" }, ok([{ type: "observe", reason_code: "seen" }]))).toMatchObject({ difference: "expected block, the Provider requested observe", seen: "observe (reason_code seen)" });
    expect(compareDecision({ decision: "replace_result", text: "a/*/[redacted]" }, ok([{ type: "replace_result", text: "a/b/c/[redacted]" }])).ok).toBe(true);
    expect(compareDecision({ decision: "replace_result" }, ok([{ type: "observe" }])).ok).toBe(false);
  });

  it("tells errors from decisions", () => {
    const error = { status: "error", error_code: "scan_error" } as never;
    expect(compareDecision({ decision: "error" }, error).ok).toBe(true);
    expect(compareDecision({ decision: "error", errorCode: "scan_error" }, error).ok).toBe(true);
    expect(compareDecision({ decision: "error", errorCode: "other" }, error).difference).toBe('error_code is "scan_error", not other');
    expect(compareDecision({ decision: "block" }, error)).toMatchObject({ ok: false, seen: "error (error_code scan_error)" });
    expect(compareDecision({ decision: "error" }, ok([])).difference).toBe('expected an error response, the Provider answered status "ok"');
  });
});

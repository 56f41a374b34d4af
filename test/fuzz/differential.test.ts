/** Differential fuzzing (fuzz --against): the comparison of two answers, the pairing of a case's exchanges, who the contract supports, the other configuration. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../src/core/json/index.js";
import { computeInputDigest, configRevision } from "../../src/core/provider/digest.js";
import type { JsonObject, ProviderExchange } from "../../src/core/provider/types.js";
import { compareAnswers, hostAnswer } from "../../src/fuzz/differential/answer.js";
import { DifferentialRun } from "../../src/fuzz/differential/campaign.js";
import { swapOf, withConfig } from "../../src/fuzz/differential/config.js";
import { differenceOf, differingRequest } from "../../src/fuzz/differential/pair.js";
import { judgeSupport } from "../../src/fuzz/differential/support.js";
import { hostileCaseArb, validCaseArb } from "../../src/fuzz/provider/index.js";
import { runProviderCase } from "../../src/fuzz/provider-run.js";
import type { CallResult, ProviderCall } from "../../src/runner/provider/call.js";
import { ctx } from "./provider/fixtures.js";

const encoder = new TextEncoder();
const API = "aw-provider/v1alpha1";

function exchange(method: string, stdout: string, exit: { code?: number | null; signal?: string | null; timedOut?: boolean } = {}): ProviderExchange {
  return {
    seq: 1,
    scenario: "s",
    purpose: "invoke",
    method,
    requestId: "r",
    request: encoder.encode("{}"),
    timeoutMs: 6000,
    outcome: { exitCode: exit.code === undefined ? 0 : exit.code, signal: exit.signal ?? null, timedOut: exit.timedOut ?? false, stdoutCapped: false, stderrCapped: false, durationMs: 50, stdoutBytes: stdout.length, stderrBytes: 0, killedByKit: false },
    stdout: encoder.encode(stdout),
    stderr: new Uint8Array(),
  };
}

const ok = (effects: unknown[], extra = ""): string => `{"api_version":"${API}","request_id":"r","status":"ok","input_digest":"sha256:${"0".repeat(64)}","effects":${JSON.stringify(effects)}${extra}}`;
const aspects = (a: ProviderExchange, b: ProviderExchange): string[] => compareAnswers(hostAnswer(a), hostAnswer(b));

describe("what a host would act on", () => {
  it("compares the outcome, the exit class, the effect types in order, replace_result texts and error codes", () => {
    const block = { type: "block", reason_code: "tool_policy", text: "no" };
    expect(aspects(exchange("invoke", ok([block])), exchange("invoke", ok([])))).toEqual(["effects"]);
    expect(aspects(exchange("invoke", ok([{ type: "observe" }, block])), exchange("invoke", ok([block, { type: "observe" }])))).toEqual(["effects"]);
    expect(aspects(exchange("invoke", ok([])), exchange("invoke", "", { code: 2 }))).toEqual(["outcome", "exit"]);
    expect(aspects(exchange("invoke", ok([{ type: "replace_result", text: "a" }])), exchange("invoke", ok([{ type: "replace_result", text: "b" }])))).toEqual(["replace-text"]);
    const error = (code: string): string => `{"api_version":"${API}","request_id":"r","status":"error","error_code":"${code}"}`;
    expect(aspects(exchange("invoke", error("bad_config")), exchange("invoke", error("other")))).toEqual(["error-code"]);
    expect(aspects(exchange("invoke", "", { code: 1 }), exchange("invoke", "", { code: null, signal: "SIGKILL" }))).toEqual(["exit"]);
    expect(aspects(exchange("invoke", "not json"), exchange("invoke", ok([])))).toEqual(["outcome"]);
  });

  it("ignores what a host does not act on: the nonzero code, key order, whitespace, number spelling, reason codes, block texts, extra fields, stdout of a failed run", () => {
    expect(aspects(exchange("invoke", "", { code: 1 }), exchange("invoke", ok([]), { code: 2 }))).toEqual([]);
    const a = ok([{ type: "block", reason_code: "x", text: "one" }]);
    const b = ` {"effects":[{"text":"two","type":"block","reason_code":"y"}],"status":"ok","request_id":"r","api_version":"${API}","input_digest":"sha256:${"0".repeat(64)}","budget":1.0e0}\n`;
    expect(aspects(exchange("invoke", a), exchange("invoke", b))).toEqual([]);
  });

  it("compares a description's operations whatever their order", () => {
    const described = (ops: unknown[]): ProviderExchange => exchange("describe", JSON.stringify({ api_version: API, request_id: "r", status: "ok", operations: ops }));
    const check = { name: "check", events: ["tool.before"], effects: ["observe", "block"] };
    const record = { name: "record", events: ["tool.after"], effects: ["observe"] };
    expect(aspects(described([check, record]), described([record, check]))).toEqual([]);
    expect(aspects(described([check, record]), described([check]))).toEqual(["operations"]);
  });
});

/** A stand-in for the provider processes: each argv[0] answers with its own policy. */
function fakeCall(policies: Record<string, (request: JsonObject) => { code: number; stdout: string }>): ProviderCall {
  return async (argv, request): Promise<CallResult> => {
    const parsed = parseJson(request, { numbers: "lossless" }).value;
    const value = parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as JsonObject) : undefined;
    const answer = value === undefined ? { code: 2, stdout: "" } : (policies[argv[0] ?? ""] ?? (() => ({ code: 2, stdout: "" })))(value);
    return { outcome: exchange("invoke", answer.stdout, { code: answer.code }).outcome, stdout: encoder.encode(answer.stdout), stderr: new Uint8Array() };
  };
}

const answerOk = (effects: unknown[]) => (r: JsonObject): { code: number; stdout: string } => ({ code: 0, stdout: JSON.stringify({ api_version: API, request_id: r.request_id, status: "ok", input_digest: r.input_digest, effects }) });
const refuse = (): { code: number; stdout: string } => ({ code: 2, stdout: "" });
const target = (name: string) => ({ argv: [name], config: ctx.config, timeoutMs: 6000 });
const valid = fc.sample(validCaseArb(ctx), { seed: 3, numRuns: 1 })[0]!;
const hostile = fc.sample(hostileCaseArb(ctx), { seed: 5, numRuns: 20 }).find((c) => c.purpose === "hostile:unknown-field")!;

async function judged(c: typeof valid, mine: ReturnType<typeof fakeCall>, theirs: ReturnType<typeof fakeCall>) {
  const a = await runProviderCase(c, target("a"), mine);
  const b = await runProviderCase(c, target("b"), theirs);
  const difference = differenceOf(c, a, b);
  if (difference === undefined) return undefined;
  return { difference, support: judgeSupport(a, b) };
}

describe("which side the contract supports", () => {
  it("both allowed when two valid answers decide differently", async () => {
    const call = fakeCall({ a: answerOk([{ type: "observe" }]), b: answerOk([]) });
    const found = await judged(valid, call, call);
    expect(found?.difference.aspects).toEqual(["effects"]);
    expect(found?.support.supports).toBe("both");
  });

  it("the side that answered, when the other refused a well-formed request", async () => {
    const call = fakeCall({ a: answerOk([]), b: refuse });
    const found = await judged(valid, call, call);
    // The kit's own check already says so: a well-formed request must be answered with exit 0.
    expect(found?.support).toMatchObject({ supports: "candidate", candidateClauses: [], againstClauses: ["provider/transport/valid-request-exits-zero"] });
  });

  it("the side whose answer fails no clause, when the other's answer is invalid", async () => {
    const call = fakeCall({ a: answerOk([]), b: answerOk([{ type: "nuke" }]) });
    const found = await judged(valid, call, call);
    expect(found?.support.supports).toBe("candidate");
    expect(found?.support.againstClauses.length).toBeGreaterThan(0);
  });

  it("the side that refused a hostile request the other accepted; a control that differs is the difference, on the base alone", async () => {
    const call = fakeCall({ a: (r) => (r.request_id === hostile.requestId ? refuse() : answerOk([])(r)), b: answerOk([]) });
    const found = await judged(hostile, call, call);
    expect(found?.difference.at).toBe("case");
    expect(found?.difference.key).toBe("hostile:unknown-field|outcome,exit");
    expect(found?.support.supports).toBe("candidate");
    expect(found?.support.againstClauses).toContain("provider/robustness/rejects-unknown-field");
    const controls = fakeCall({ a: answerOk([{ type: "observe" }]), b: answerOk([]) });
    const atControl = await judged(hostile, controls, controls);
    expect(atControl?.difference.at).toBe("control");
    expect(atControl?.difference.key).toBe("invoke|effects");
    expect(differingRequest(hostile, { at: "control" })).toBe(hostile.base);
  });
});

describe("the campaign of differences", () => {
  it("sends the fixed calls and each case to both, keeps the first case of each kind of difference, and shrinks it", async () => {
    // The other never answers a request whose tool.input is a nonempty object; the candidate answers all.
    const picky = (r: JsonObject): { code: number; stdout: string } => {
      const input = ((r.event as JsonObject | undefined)?.tool as JsonObject | undefined)?.input;
      return input !== null && typeof input === "object" && Object.keys(input).length > 0 ? refuse() : answerOk([])(r);
    };
    const describeOk = (r: JsonObject) => (r.method === "describe" ? { code: 0, stdout: JSON.stringify({ api_version: API, request_id: r.request_id, status: "ok", operations: ctx.operations }) } : r.method === "validate_config" ? { code: 0, stdout: JSON.stringify({ api_version: API, request_id: r.request_id, status: "ok" }) } : undefined);
    const call = fakeCall({ a: (r) => describeOk(r) ?? answerOk([])(r), b: (r) => describeOk(r) ?? picky(r) });
    const run = new DifferentialRun({ candidate: target("a"), against: target("b"), call });
    await run.prepare(ctx.config);
    expect(run.found).toBe(0);
    const arb = validCaseArb(ctx);
    const cases = fc.sample(arb, { seed: 7, numRuns: 30 });
    for (const [index, c] of cases.entries()) await run.alongside(c, index, runProviderCase(c, target("a"), call));
    expect(run.cases).toBe(30);
    expect(run.found).toBe(1);
    expect([...run.againstFailed]).toEqual(["provider/transport/valid-request-exits-zero"]);
    const [kept] = await run.finish(arb, 7);
    expect(kept?.shrunk).toBe(true);
    expect(kept?.support.supports).toBe("candidate");
    const input = (((kept?.request.value as JsonObject).event as JsonObject).tool as JsonObject).input as JsonObject;
    // Shrunk to the smallest tool.input that still makes the difference: one member.
    expect(Object.keys(input)).toHaveLength(1);
  });
});

describe("a difference that does not come back", () => {
  it("is reported as it was seen, said to be flaky, not dropped", async () => {
    let calls = 0;
    const call = fakeCall({ a: answerOk([]), b: (r) => (calls++ === 0 ? answerOk([{ type: "observe" }])(r) : answerOk([])(r)) });
    const run = new DifferentialRun({ candidate: target("a"), against: target("b"), call });
    await run.alongside(valid, 0, runProviderCase(valid, target("a"), call));
    const kept = await run.finish(validCaseArb(ctx), 3);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ shrunk: false, path: "0", difference: { key: "invoke|effects" }, support: { supports: "both" } });
    expect(kept[0]?.support.why).toMatch(/^seen once, not when the case ran again/);
  });
});

describe("the fixed calls", () => {
  it("go to both sides; a description the contract refuses is judged on the describe clauses", async () => {
    const describing = (effects: string[]) => (r: JsonObject) => ({ code: 0, stdout: JSON.stringify({ api_version: API, request_id: r.request_id, status: "ok", ...(r.method === "describe" ? { operations: [{ name: "check", events: ["tool.before"], effects }] } : {}) }) });
    const call = fakeCall({ a: describing(["observe", "block"]), b: describing(["observe", "block", "allow"]) });
    const run = new DifferentialRun({ candidate: target("a"), against: target("b"), call });
    await run.prepare(ctx.config);
    const [kept, ...rest] = await run.finish(validCaseArb(ctx), 1);
    expect(rest).toEqual([]);
    expect(kept).toMatchObject({ path: "describe", shrunk: false, difference: { key: "describe|operations" }, support: { supports: "candidate", candidateClauses: [] } });
    expect(kept?.support.againstClauses).toContain("provider/describe/operation-effects");
  });
});

describe("the other provider's configuration", () => {
  const other = { value: { blocked_tools: ["other_tool"] }, document: '{"blocked_tools":["other_tool"]}' };
  const swap = swapOf({ value: ctx.config, document: JSON.stringify(ctx.config) }, other)!;
  swap.from.revision = ctx.configRevision;
  const bound = (bytes: Uint8Array): boolean => {
    const value = parseJson(bytes, { numbers: "lossless" }).value as JsonObject;
    return value.input_digest === computeInputDigest(bytes);
  };

  it("moves a well-formed request to it, bound again", () => {
    const moved = withConfig(valid, swap);
    expect(moved.value?.config).toEqual(other.value);
    expect(moved.value?.config_revision).toBe(configRevision(other.document));
    expect(bound(moved.bytes)).toBe(true);
    expect(withConfig(valid, swapOf({ value: ctx.config, document: "{}" }, { value: ctx.config, document: "{}" }))).toBe(valid);
  });

  it("keeps a hostile request's defect: bound requests stay bound, a wrong digest stays wrong", () => {
    const hostiles = fc.sample(hostileCaseArb(ctx), { seed: 11, numRuns: 60 }).filter((c) => ["hostile:unknown-field", "hostile:mismatched-digest", "hostile:bad-request-id"].includes(c.purpose));
    expect(hostiles.length).toBeGreaterThan(3);
    for (const c of hostiles) {
      const moved = withConfig(c, swap);
      const text = Buffer.from(moved.bytes).toString("utf8");
      expect(text).toContain("other_tool");
      expect(text).not.toContain(`"config_revision":"${ctx.configRevision}"`);
      expect([c.purpose, c.label, bound(moved.bytes)]).toEqual([c.purpose, c.label, bound(c.bytes)]);
    }
  });
});

describe("cases a host could not send the other provider", () => {
  it("are not sent to it when its describe lacks the operation, the event or an admitted effect; the description's difference is reported once", async () => {
    // The other declares only the first operation, on its first event, with only observe: every other case would be refused for that alone.
    const [first] = ctx.operations;
    const narrow = [{ name: first!.name, events: [first!.events[0]!], effects: ["observe"] }];
    const describing = (operations: unknown) => (r: JsonObject) => (r.method === "describe" ? { code: 0, stdout: JSON.stringify({ api_version: API, request_id: r.request_id, status: "ok", operations }) } : r.method === "validate_config" ? { code: 0, stdout: JSON.stringify({ api_version: API, request_id: r.request_id, status: "ok" }) } : undefined);
    const sent: JsonObject[] = [];
    const call = fakeCall({
      a: (r) => describing(ctx.operations)(r) ?? answerOk([])(r),
      // It refuses whatever it did not declare, as a conforming provider may.
      b: (r) => describing(narrow)(r) ?? (sent.push(r), r.operation === first!.name ? answerOk([])(r) : refuse()),
    });
    const run = new DifferentialRun({ candidate: target("a"), against: target("b"), call });
    await run.prepare(ctx.config);
    const cases = fc.sample(validCaseArb(ctx), { seed: 11, numRuns: 40 });
    for (const [index, c] of cases.entries()) await run.alongside(c, index, runProviderCase(c, target("a"), call));
    const sendable = cases.filter((c) => c.value?.operation === first!.name && ((c.value?.event as JsonObject).name === first!.events[0]) && (c.value?.allowed_effects as string[]).every((e) => e === "observe"));
    expect(sendable.length).toBeGreaterThan(0);
    expect(run.cases).toBe(sendable.length);
    expect(run.notCompared).toBe(40 - sendable.length);
    expect(sent.every((r) => r.operation === first!.name)).toBe(true);
    const kept = await run.finish(validCaseArb(ctx), 11);
    expect(kept.map((k) => k.difference.key)).toEqual(["describe|operations"]);
  });
});

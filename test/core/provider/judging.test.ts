import { describe, expect, it } from "vitest";
import { judgeProviderTranscript } from "../../../src/core/provider/judge.js";
import { refusedForBinding } from "../../../src/core/provider/response.js";
import type { ProviderExchange, ProviderTranscript, Purpose } from "../../../src/core/provider/types.js";

/** Synthetic transcripts: how the provider checks treat dialect refusals and refused controls. */

const encoder = new TextEncoder();
let seq = 0;

function exchange(purpose: Purpose, answer: "ok" | "error" | "exit1", extra: Partial<ProviderExchange> = {}): ProviderExchange {
  seq++;
  const requestId = extra.requestId ?? `r-${seq}`;
  const stdout = answer === "exit1" ? "" : JSON.stringify({ api_version: "aw-provider/v1alpha1", request_id: requestId, status: answer, ...(answer === "error" ? { error_code: "nope" } : { input_digest: `sha256:${"0".repeat(64)}`, effects: [] }) });
  return {
    seq,
    scenario: `${purpose} ${seq}`,
    purpose,
    method: "invoke",
    requestId,
    request: encoder.encode("{}"),
    requestValue: { method: "invoke", request_id: requestId, input_digest: `sha256:${"0".repeat(64)}`, allowed_effects: ["observe"], event: { name: "tool.before", tool: {} } },
    timeoutMs: 6000,
    budgetMs: 5000,
    outcome: { exitCode: answer === "exit1" ? 1 : 0, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false, durationMs: 50, stdoutBytes: stdout.length, stderrBytes: 0, killedByKit: false },
    stdout: encoder.encode(stdout),
    stderr: new Uint8Array(),
    ...extra,
  };
}

function transcript(exchanges: ProviderExchange[]): ProviderTranscript {
  return { argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges };
}

const result = (t: ProviderTranscript, id: string) => judgeProviderTranscript(t).results.find((r) => r.id === id);

describe("digest dialects", () => {
  it("a resend refused for its binding after a policy error is a dialect refusal; one refused the same way is an ordinary answer", () => {
    const policy = exchange("invoke", "error");
    expect(refusedForBinding(exchange("invoke", "exit1"), policy)).toBe(true);
    expect(refusedForBinding(exchange("invoke", "error"), policy)).toBe(false);
    expect(refusedForBinding(exchange("invoke", "exit1"), exchange("invoke", "exit1"))).toBe(false);
  });

  it("a dialect refusal is a SHOULD finding under digest-dialects, and no MUST failure", () => {
    const control = exchange("invoke", "ok");
    const ryu = exchange("dialect", "exit1", { digestDialect: "ryu", controlSeq: control.seq, dialectRefused: true });
    const zmij = exchange("dialect", "ok", { digestDialect: "zmij", controlSeq: control.seq });
    const t = transcript([control, ryu, zmij]);
    const dialects = result(t, "provider/invoke/digest-dialects");
    expect(dialects?.status).toBe("fail");
    expect(dialects?.findings.map((f) => f.requestId)).toEqual([ryu.requestId]);
    expect(dialects?.findings[0]?.message).toMatch(/serde_json 1\.0\.26 to 1\.0\.146 would be refused/);
    expect(result(t, "provider/transport/valid-request-exits-zero")?.status).toBe("pass");
  });

  it("the same exit without a dialect accepted elsewhere stays a MUST failure", () => {
    const control = exchange("invoke", "ok");
    const t = transcript([control, exchange("invoke", "exit1", { digestDialect: "ryu" })]);
    expect(result(t, "provider/transport/valid-request-exits-zero")?.status).toBe("fail");
  });

  it("every dialect refused while the control was accepted: not applicable, saying so", () => {
    const control = exchange("invoke", "ok");
    const t = transcript([control, exchange("dialect", "error", { digestDialect: "ryu", controlSeq: control.seq }), exchange("dialect", "error", { digestDialect: "zmij", controlSeq: control.seq })]);
    const dialects = result(t, "provider/invoke/digest-dialects");
    expect(dialects?.status).toBe("not-applicable");
    expect(dialects?.reason).toMatch(/refused the invocation with exponent floats .* in every digest dialect \(ryu: error_code nope; zmij: error_code nope\)/);
  });

  it("every dialect accepted: pass", () => {
    const control = exchange("invoke", "ok");
    const t = transcript([control, exchange("dialect", "ok", { digestDialect: "ryu" }), exchange("dialect", "ok", { digestDialect: "zmij" })]);
    expect(result(t, "provider/invoke/digest-dialects")).toMatchObject({ status: "pass", judged: 2 });
  });
});

describe("hostile probes and their controls", () => {
  it("a refused control makes the clause not applicable and names the control", () => {
    const base = exchange("invoke", "ok");
    const control = exchange("control", "error", { requestId: "hostile-deep-control" });
    const probe = exchange("hostile:excessive-depth", "error", { controlSeq: control.seq, controlLabel: "tool.input nested 32 levels, within the limit" });
    const depth = result(transcript([base, control, probe]), "provider/robustness/rejects-excessive-depth");
    expect(depth?.status).toBe("not-applicable");
    expect(depth?.reason).toBe("the Provider refused the control request (tool.input nested 32 levels, within the limit: error_code nope), so a refusal of the probe would prove nothing");
  });

  it("an accepted control lets the probe be judged: answered ok, it fails", () => {
    const control = exchange("control", "ok");
    const probe = exchange("hostile:excessive-depth", "ok", { controlSeq: control.seq, controlLabel: "tool.input nested 32 levels, within the limit" });
    expect(result(transcript([control, probe]), "provider/robustness/rejects-excessive-depth")?.status).toBe("fail");
  });
});

describe("shared skip reasons when no invocation could be judged", () => {
  const answered = (purpose: Purpose, method: string, body: object): ProviderExchange => {
    const e = exchange(purpose, "ok");
    const stdout = encoder.encode(JSON.stringify({ api_version: "aw-provider/v1alpha1", request_id: e.requestId, ...body }));
    return { ...e, method, stdout, outcome: { ...e.outcome, stdoutBytes: stdout.length } };
  };
  const validate = (): ProviderExchange => answered("config-valid", "validate_config", { status: "ok" });
  const reasons = (t: ProviderTranscript): Set<string | undefined> =>
    new Set(judgeProviderTranscript(t).results.filter((r) => r.id.startsWith("provider/invoke/") && r.level === "MUST").map((r) => `${r.status}: ${r.reason}`));

  it("describe answered with an error: every invoke clause is skipped for that one reason", () => {
    const t = transcript([answered("describe", "describe", { status: "error", error_code: "not_ready" }), validate()]);
    expect(reasons(t)).toEqual(new Set(["skip: describe was not answered ok (error_code not_ready), so the kit knew no operations to check or invoke: make describe answer ok (see provider/describe/answers-ok)"]));
  });

  it("no operation the profile can invoke: skipped, pointing at admissible-operation", () => {
    const t = transcript([answered("describe", "describe", { status: "ok", operations: [{ name: "audit", events: ["session.start"], effects: ["observe"] }] }), validate()]);
    const [only] = [...reasons(t)];
    expect(only).toMatch(/^skip: describe declares no operation pairing tool\.before or tool\.after .* \(see provider\/describe\/admissible-operation\)$/);
  });

  it("invocations sent, none answered ok: skipped, not passed as not applicable", () => {
    const t = transcript([answered("describe", "describe", { status: "ok", operations: [{ name: "check", events: ["tool.before"], effects: ["observe"] }] }), validate(), exchange("invoke", "error")]);
    expect([...reasons(t)].filter((r) => r?.startsWith("not-applicable"))).toEqual([]);
    expect(reasons(t)).toContain("skip: no invocation was answered ok, so the kit saw no effects to judge: give a configuration under which the Provider answers invocations ok (see provider/invoke/answers-ok and provider/transport/valid-request-exits-zero)");
  });
});

describe("a run cut short", () => {
  it("answers-ok: an operation with only error answers so far is not judged once the run was cut, and fails when it was not", () => {
    const errors = [exchange("invoke", "error"), exchange("invoke", "error")];
    expect(result(transcript(errors), "provider/invoke/answers-ok")?.status).toBe("fail");
    for (const cut of [{ runTimedOut: 1000 }, { interrupted: "SIGINT" as const }]) {
      const partial = transcript(errors);
      partial.context = { ...partial.context, ...cut };
      expect(result(partial, "provider/invoke/answers-ok")).toMatchObject({ status: "skip", reason: "the run was cut short before every valid invocation was sent" });
      const answered = transcript([...errors, exchange("invoke", "ok")]);
      answered.context = { ...answered.context, ...cut };
      expect(result(answered, "provider/invoke/answers-ok")?.status).toBe("pass");
    }
  });
});

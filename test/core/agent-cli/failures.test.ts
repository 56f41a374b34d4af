import { describe, expect, it } from "vitest";
import { failureChecks, failureNotes } from "../../../src/core/agent-cli/checks/failures.js";
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import { renderDirective } from "../../../src/servers/index.js";
import type { Directive, ModelCall, Transcript, TranscriptEvent } from "../../../src/core/agent-cli/types.js";
import type { Judgement } from "../../../src/core/report/types.js";

const user = (directive: Directive): string => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "text", text: `Go. ${renderDirective(directive)}` }] } });
const result = (isError: boolean): string => JSON.stringify({ type: "result", subtype: isError ? "error" : "success", is_error: isError, session_id: "s1", result: isError ? "provider_failed" : "ok" });
const call = (seq: number, t: number, directive: Directive, status: number): ModelCall => ({ seq, startT: t, api: "openai", method: "POST", path: "/v1/chat/completions", stream: true, authorized: true, userText: "", directive, status, replyText: "", outcome: status === 200 ? "complete" : "error" });

type Body<E = TranscriptEvent> = E extends TranscriptEvent ? Omit<E, "t" | "process"> : never;
const at = (t: number, event: Body): TranscriptEvent => ({ t, process: 1, ...event }) as TranscriptEvent;
const launch = at(0, { kind: "launch", argv: ["cli"], cwd: "/w", envNames: [] });
const run = (scenario: string, events: TranscriptEvent[]): AgentRun => ({ mode: "stream-json", transcripts: [{ scenario, mode: "stream-json", events: [launch, ...events] } as Transcript], turnTimeoutMs: 30_000, offline: true });
const judge = (clause: string, r: AgentRun): Judgement => {
  const check = failureChecks.find((c) => c.clause === clause);
  if (check === undefined) throw new Error(clause);
  return check.judge(r);
};

const ERROR = "agent-cli/failures/model-error";
const STALL = "agent-cli/failures/model-stall";
const fail500: Directive = { turn: "fail-500", status: 500 };
const stall: Directive = { turn: "fail-stall", stall: true };

describe("failures/*: judged by each failing turn's own directive and its own time", () => {
  it("an HTTP 500 retried for 178 s, then an error result and a good turn, passes; the note says how long it took", () => {
    const retries = Array.from({ length: 11 }, (_, i) => at(200 + i * 17_000, { kind: "model", call: call(i + 1, 200 + i * 17_000, fail500, 500) }));
    const r = run("failures-error", [
      at(100, { kind: "send", line: user(fail500) }), ...retries, at(178_100, { kind: "stdout", line: result(true) }),
      at(178_200, { kind: "send", line: user({ turn: "fail-500-next" }) }), at(178_300, { kind: "model", call: call(12, 178_300, { turn: "fail-500-next" }, 200) }), at(178_400, { kind: "stdout", line: result(false) }),
    ]);
    expect(judge(ERROR, r)).toEqual({ outcome: "judged", judged: 1, findings: [] });
    expect(failureNotes(r)).toEqual(["failures/model-error: the CLI ended the HTTP 500 turn after 178.0 s (11 model requests)"]);
  });

  it("the old cascade: a stall turn queued behind a slow 500 never reached the model, so model-stall says nothing about it", () => {
    const r = run("failures", [
      at(100, { kind: "send", line: user(fail500) }), at(200, { kind: "model", call: call(1, 200, fail500, 500) }),
      at(30_100, { kind: "timeout", waitingFor: "the terminal event of turn fail-500", afterMs: 30_000 }),
      at(30_200, { kind: "send", line: user(stall) }),
      at(60_200, { kind: "timeout", waitingFor: "the terminal event of turn fail-stall", afterMs: 30_000 }),
    ]);
    expect(judge(STALL, r).outcome).toBe("skip");
    const error = judge(ERROR, r);
    expect(error.outcome === "judged" ? error.findings.map((f) => f.message) : []).toEqual(["after HTTP 500: no terminal event within 30.0 s (--stall-timeout, the kit's bound); the kit stopped waiting"]);
  });

  it("a stall the CLI never ends fails with the bound; an error result that is not one, or a next turn not served, fail too", () => {
    const timedOut = run("failures-stall", [
      at(100, { kind: "send", line: user(stall) }), at(200, { kind: "model", call: { ...call(1, 200, stall, 200), outcome: "stalled" } }),
      at(180_100, { kind: "timeout", waitingFor: "the terminal event of turn fail-stall", afterMs: 180_000 }),
    ]);
    const found = judge(STALL, timedOut);
    expect(found.outcome === "judged" ? found.findings.map((f) => [f.message, f.seen]) : []).toEqual([
      ["after a stalled stream: no terminal event within 180.0 s (--stall-timeout, the kit's bound); the kit stopped waiting", "still running after 180.0 s, 1 model request"],
    ]);
    const wrong = run("failures-stall", [
      at(100, { kind: "send", line: user(stall) }), at(200, { kind: "model", call: call(1, 200, stall, 200) }), at(2100, { kind: "stdout", line: result(false) }),
      at(2200, { kind: "send", line: user({ turn: "fail-stall-next" }) }), at(2300, { kind: "model", call: call(2, 2300, { turn: "fail-stall-next" }, 200) }), at(2400, { kind: "stdout", line: result(true) }),
    ]);
    const messages = judge(STALL, wrong);
    expect(messages.outcome === "judged" ? messages.findings.map((f) => f.message) : []).toEqual([
      "after a stalled stream the turn did not end with an error result (it ended after 2.0 s)",
      "the turn after a stalled stream was not answered with success",
    ]);
    expect(failureNotes(wrong)).toEqual(["failures/model-stall: the CLI ended the stalled turn after 2.0 s (1 model request)"]);
  });

  it("an exit after the error result is a finding: the process did not keep serving", () => {
    const r = run("failures-error", [
      at(100, { kind: "send", line: user(fail500) }), at(200, { kind: "model", call: call(1, 200, fail500, 500) }), at(300, { kind: "stdout", line: result(true) }),
      at(400, { kind: "exit", code: 1, signal: null, killedByKit: false }),
    ]);
    const j = judge(ERROR, r);
    expect(j.outcome === "judged" ? j.findings.map((f) => [f.message, f.seen]) : []).toEqual([["after HTTP 500 the process could not be given the next turn", "exit 1"]]);
  });
});

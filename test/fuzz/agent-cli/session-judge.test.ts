/**
 * How a fuzzed session's transcript is judged, on synthetic transcripts: with the checks `run`
 * uses, so the same behaviour gets the same clause and level. A process that exits with no turn
 * pending has not exited mid-turn: after a malformed line that is survives-malformed-line
 * (SHOULD), as in the malformed scenario; at rest after answered turns no clause judges it.
 */
import { describe, expect, it } from "vitest";
import { judgeFuzzTranscript, restExit } from "../../../src/fuzz/agent-cli/judge.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { Script } from "../../core/agent-cli/transcripts.js";

const SURVIVES = "agent-cli/input/survives-malformed-line";
const MID_TURN = "agent-cli/turns/no-exit-mid-turn";
const NOT_JSON = "this is not json";

function judged(script: Script): { results: Map<string, ClauseResult>; clauses: string[] } {
  const { results, findings } = judgeFuzzTranscript(script.transcript(), undefined, 1000);
  return { results: new Map(results.map((r) => [r.id, r])), clauses: findings.map((f) => f.clause) };
}

const session = (): Script => new Script("fuzz").launch().user("hello").out({ type: "system", subtype: "init", session_id: "s-1" }).success("hi");

function action(script: Script, name: "close-stdin" | "sigterm"): Script {
  script.events.push({ kind: "action", t: 1000, process: 1, action: name });
  return script;
}

describe("a fuzzed session's exits", () => {
  it("an exit after a malformed line, with no turn pending, fails survives-malformed-line, the clause run uses, not no-exit-mid-turn", () => {
    // The shrunk case: [malformed "this is not json", turn ""]; the turn found the process gone.
    const script = new Script("fuzz").launch().send(NOT_JSON).exit(1);
    const { results, clauses } = judged(script);
    expect(clauses).toEqual([SURVIVES]);
    expect(results.get(SURVIVES)).toMatchObject({ status: "fail", level: "SHOULD", findings: [{ message: "the process exited on its own after a malformed line, with no turn pending", foundBy: "fuzz" }] });
    expect(results.get(MID_TURN)?.status).not.toBe("fail");
    expect(restExit(script.transcript())).toBeUndefined();
    // After answered turns too.
    expect(judged(session().send(NOT_JSON).exit(1)).clauses).toEqual([SURVIVES]);
  });

  it("a malformed line the process survived passes survives-malformed-line; one answered with success fails it", () => {
    const survived = judged(session().send(NOT_JSON).user("again").success("hi again"));
    expect(survived.clauses).toEqual([]);
    expect(survived.results.get(SURVIVES)).toMatchObject({ status: "pass", judged: 1 });
    const answered = judged(session().send(NOT_JSON).success("ok"));
    expect(answered.results.get(SURVIVES)?.findings.map((f) => f.message)).toEqual(["a malformed line was answered with success"]);
  });

  it("an exit the host asked for after a malformed line is no finding", () => {
    const { clauses, results } = judged(action(session().send(NOT_JSON), "close-stdin").exit(0));
    expect(clauses).toEqual([]);
    expect(results.get(SURVIVES)?.status).toBe("pass");
  });

  it("a session without a malformed line leaves survives-malformed-line unjudged, saying the steps held none", () => {
    expect(judged(session()).results.get(SURVIVES)).toMatchObject({ status: "skip", reason: "the generated steps held no malformed line (more --fuzz-runs make one likely)" });
  });

  it("an exit while a turn awaited its terminal event is no-exit-mid-turn, the first turn too (the fixed suite calls that a refused launch)", () => {
    const later = judged(session().user("second").out({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }).exit(1));
    expect(later.clauses).toEqual([MID_TURN]);
    const first = judged(new Script("fuzz").launch().user("a".repeat(100)).exit(1));
    expect(first.clauses).toEqual([MID_TURN]);
    expect(first.results.get(MID_TURN)).toMatchObject({ status: "fail", judged: 1, findings: [{ message: expect.stringMatching(/^the process exited on its own while turn .+ awaited its terminal event$/) }] });
    // A pending turn is the turn's, even when a malformed line came after it.
    expect(judged(new Script("fuzz").launch().user("x").send(NOT_JSON).exit(1)).clauses).toEqual([MID_TURN]);
  });

  it("a session the host ended before any turn is not a refused launch: its clauses are unjudged for what did not occur", () => {
    const { results, clauses } = judged(action(new Script("fuzz").launch(), "close-stdin").exit(0));
    expect(clauses).toEqual([]);
    expect(results.get("agent-cli/turns/text-blocks")).toMatchObject({ status: "not-applicable", reason: "no turn streamed content_block events" });
    expect([...results.values()].map((r) => r.reason ?? "").filter((reason) => reason.includes("exited at start"))).toEqual([]);
  });

  it("an exit at rest after answered turns is judged by no clause, and described for the report's notes", () => {
    const script = session().exit(0);
    expect(judged(script).clauses).toEqual([]);
    expect(restExit(script.transcript())).toBe("at rest, after 1 answered turn(s)");
    expect(restExit(new Script("fuzz").launch().exit(1).transcript())).toBe("before the host wrote a line");
    expect(restExit(action(session(), "sigterm").exit(143).transcript())).toBeUndefined();
    expect(restExit(session().exit(0, true).transcript())).toBeUndefined();
  });
});

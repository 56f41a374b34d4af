/** The run-level cause of a CLI that never answered a turn, and the reasons of scenarios the kit stopped early. */
import { describe, expect, it } from "vitest";
import { FIXTURE_HINT, neverAnsweredCause } from "../../../src/core/agent-cli/causes.js";
import { haltCause, judgeAgentRun, stopReason } from "../../../src/core/agent-cli/judge.js";
import type { Transcript } from "../../../src/core/agent-cli/types.js";
import { runOf, Script } from "./transcripts.js";

/** One awaited turn the kit gave up on after 30 s, then stopped. */
function unanswered(scenario: string, output: (s: Script) => Script = (s) => s): Script {
  const s = output(new Script(scenario).launch().user("Say hello. [[awp-fixture turn=x-1]]"));
  s.events.push({ kind: "timeout", t: 30_100, process: 1, waitingFor: "the terminal event of turn 1 (x-1)", afterMs: 30_000 });
  s.events.push({ kind: "action", t: 30_110, process: 1, action: "stop" });
  return s.exit(null, true);
}

const cause = (...scripts: Script[]): string | undefined => neverAnsweredCause(scripts.map((s) => s.transcript()), 30_000);
const partial = (line: string) => (s: Script): Script => {
  s.events.push({ kind: "stdout", t: 30_105, process: 1, line, partial: true });
  return s;
};

describe("the CLI never answered a turn", () => {
  it("says what stdout held: nothing, no line break, no JSON object, or no terminal event, and the decisive stderr line", () => {
    expect(cause(unanswered("basic", (s) => s.model()))).toBe(
      "the CLI never answered a turn: no turn got a terminal event within 30000 ms (--turn-timeout); it wrote nothing on stdout; nothing on stderr: make it read one JSON line per turn on stdin and end each turn with a result event; if it is only slow, raise --turn-timeout",
    );
    expect(cause(unanswered("basic", (s) => partial("\u0001\u0002binary")(s.model())))).toContain('; it wrote 8 characters on stdout and never a line break, starting "\\u0001\\u0002binary"; nothing on stderr:');
    expect(cause(unanswered("basic", (s) => s.model().out("Starting up...").out("[1,2]").err("debug: x\nError: no API key configured\n")))).toContain('; it wrote 2 stdout lines, none of them a JSON object; the first: "Starting up..."; stderr says: Error: no API key configured:');
    expect(cause(unanswered("basic", (s) => s.out({ type: "system", subtype: "init", session_id: "s" })))).toContain("; it wrote 1 JSON line on stdout but never a terminal event (result or message_stop);");
  });

  it("says so when the CLI never called the kit's model either (one retrying a model it cannot reach looks mute too), with how to point it at the fixture", () => {
    const reason = cause(unanswered("basic", (s) => s.out({ type: "system", subtype: "api_retry", attempt: 6 })));
    expect(reason).toBe(
      `the CLI never answered a turn: no turn got a terminal event within 30000 ms (--turn-timeout); it wrote 1 JSON line on stdout but never a terminal event (result or message_stop); nothing on stderr; nor did it ever call the kit's model fixture (if it tried: ${FIXTURE_HINT}): make it read one JSON line per turn on stdin and end each turn with a result event; if it is only slow, raise --turn-timeout`,
    );
    expect(cause(unanswered("basic"), unanswered("content", (s) => s.model()))).not.toContain("model fixture");
  });

  it("is no cause when any turn of the run was answered, when no wait ran out, or for plain stdout captures", () => {
    const answered = new Script("content").launch().user("q").success("ok");
    expect(cause(unanswered("basic"), answered)).toBeUndefined();
    const cut = new Script("basic").launch().user("q");
    cut.events.push({ kind: "action", t: 500, process: 1, action: "stop" });
    expect(cause(cut.exit(null, true))).toBeUndefined();
    const capture: Transcript = { ...unanswered("basic").transcript(), stdoutOnly: true };
    expect(neverAnsweredCause([capture], 30_000)).toBeUndefined();
  });

  it("fails only one-terminal-per-turn and gives every other unjudged clause the cause, except the launch clauses; it is the run's halt", () => {
    const run = runOf(unanswered("basic"), unanswered("malformed"), unanswered("mcp"));
    const { results, halted } = judgeAgentRun(run);
    expect(halted).toBe(cause(unanswered("basic")));
    expect(results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/turns/one-terminal-per-turn"]);
    for (const r of results.filter((c) => c.status === "skip" || c.status === "not-applicable")) {
      if (r.id.startsWith("agent-cli/launch/")) continue;
      expect(r, r.id).toMatchObject({ status: "skip", reason: halted });
    }
  });
});

describe("scenarios the kit stopped early", () => {
  it("name the turn and the bound, or --run-timeout, in their skip reasons", () => {
    expect(stopReason({ scenario: "failures-stall", cause: "unanswered", turn: "turn 1 (fail-stall)", waitedMs: 180_000, bound: "--stall-timeout", started: true }, {})).toBe(
      "the CLI did not answer turn 1 (fail-stall) of scenario failures-stall within 180000 ms (--stall-timeout), so the kit ran none of its later steps: make the CLI answer that turn (see agent-cli/turns/one-terminal-per-turn), or raise --stall-timeout if it is only slow",
    );
    expect(stopReason({ scenario: "tools", cause: "run-timeout", started: false }, { runTimeoutMs: 900_000 })).toBe(
      "the run reached --run-timeout (900000 ms, 900 s) before the tools scenario started: the kit ended every candidate process and judged what it had; raise --run-timeout, or run less at once (--scenario, --clause)",
    );
  });

  it("a run cut by --run-timeout halts with it; a skip of a stopped scenario's clause names the stop, a judged clause keeps its verdict", () => {
    const answered = new Script("basic").launch().user("q").success("ok");
    const run = { ...runOf(answered), stops: [{ scenario: "shutdown" as const, cause: "run-timeout" as const, started: false }], runTimeoutMs: 60_000 };
    const { results, halted } = judgeAgentRun(run);
    expect(halted).toMatch(/^the run reached --run-timeout \(60000 ms, 60 s\) before every scenario finished/);
    expect(results.find((r) => r.id === "agent-cli/termination/shutdown-line")?.reason).toMatch(/^the run reached --run-timeout \(60000 ms, 60 s\) before the shutdown scenario started/);
    expect(results.find((r) => r.id === "agent-cli/turns/one-terminal-per-turn")?.status).toBe("pass");
    expect(haltCause(runOf(answered))).toBeUndefined();
  });
});

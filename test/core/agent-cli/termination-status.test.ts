/** agent-cli/termination/clean-exit-status, and the termination clauses' reasons when they judge nothing. */
import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { runOf, Script } from "./transcripts.js";

const CLEAN = "agent-cli/termination/clean-exit-status";
const INIT = { type: "system", subtype: "init", session_id: "s-1" };

function result(id: string, ...scripts: Script[]): ClauseResult | undefined {
  return judgeAgentRun(runOf(...scripts)).results.find((r) => r.id === id);
}

/** A process that served one turn. */
const served = (scenario: string): Script => new Script(scenario).launch().user("hi").out(INIT).model({ userText: "hi" }).deltas("hello").success();

describe("agent-cli/termination/clean-exit-status", () => {
  it("passes exit status 0 after the shutdown line and after the end of stdin at rest", () => {
    expect(result(CLEAN, served("shutdown").send('{"type":"shutdown"}').exit(0), served("basic").action("close-stdin").exit(0))).toMatchObject({ status: "pass", judged: 2 });
  });

  it("fails a non-zero status after the shutdown line", () => {
    const r = result(CLEAN, served("shutdown").send('{"type":"shutdown"}').exit(1));
    expect(r?.findings.map((f) => f.message)).toEqual(["after the shutdown line, the process ended with status 1"]);
  });

  it("fails a non-zero status at the end of stdin with no turn pending", () => {
    const r = result(CLEAN, served("basic").action("close-stdin").exit(3));
    expect(r?.findings.map((f) => f.message)).toEqual(["after the end of stdin, with no turn pending, the process ended with status 3"]);
  });

  it("judges no end the host forced or the CLI was not asked for: mid-turn EOF, SIGTERM, the kit's stop, a refused launch", () => {
    const midTurn = served("basic").user("another").action("close-stdin").exit(1);
    const sigterm = served("shutdown").action("sigterm").exit(null, false, "SIGTERM");
    const stopped = served("basic").send('{"type":"shutdown"}').action("stop").exit(null, true, "SIGTERM");
    for (const s of [midTurn, sigterm, stopped]) expect(result(CLEAN, s)?.status).toBe("skip");
    expect(result(CLEAN, midTurn)?.reason).toContain("no process ended by itself on the shutdown line or at the end of stdin with no turn pending");
  });

  it("says which scenarios to run when neither ran", () => {
    expect(result(CLEAN, served("tools"))?.reason).toBe("neither the shutdown nor the basic scenario ran: run them with --scenario shutdown --scenario basic");
  });
});

describe("the termination clauses' reasons", () => {
  it("say a scenario did not run only when it did not, and otherwise why the kit never did its step", () => {
    expect(result("agent-cli/termination/stdin-eof", served("tools"))?.reason).toBe("the basic scenario did not run: run it with --scenario basic");
    // The basic scenario ran, but its process ended mid-turn before the kit could close stdin.
    const basic = served("basic").user("Write a long answer.").exit(1);
    expect(result("agent-cli/termination/stdin-eof", basic, served("tools"))?.reason).toBe("the kit never closed stdin in the basic scenario: its process was gone, or a turn before went unanswered (see agent-cli/turns)");
  });
});

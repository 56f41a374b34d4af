/**
 * Which findings rest only on a bound the kit chose, and carry it (Finding.kitBound: the option,
 * its value, what the CLI was doing when it ran out): a turn the kit stopped waiting for
 * (--turn-timeout), a failing turn not ended within --stall-timeout, a process not gone within
 * --shutdown-timeout of the shutdown line or --turn-timeout of the end of stdin, a pending task
 * given up past timeout_seconds plus --task-wait-slack. The Desktop's own 3 s SIGTERM grace
 * is not the kit's choice, and a finding the contract decides alone carries none.
 */
import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ClauseResult, Finding } from "../../../src/core/report/types.js";
import { managedRun, managedTranscript, OPENAI_JSON } from "./managed-sim.js";
import { runOf, Script } from "./transcripts.js";

function findings(id: string, run: ReturnType<typeof runOf>): Finding[] {
  const result: ClauseResult | undefined = judgeAgentRun(run, (c) => c === id).results.find((r) => r.id === id);
  expect(result?.status, id).toBe("fail");
  return result?.findings ?? [];
}

describe("findings at a kit-chosen bound", () => {
  it("--stall-timeout: the failing turn still running, with its model requests", () => {
    const s = new Script("failures-stall").launch().user("x [[awp-fixture turn=fail-stall stall=1]]");
    for (let i = 0; i < 3; i++) s.model({ directive: { turn: "fail-stall", stall: true }, outcome: "stalled" });
    s.events.push({ kind: "timeout", t: 180_500, process: 1, waitingFor: "the terminal event of turn fail-stall", afterMs: 180_000 });
    s.events.push({ kind: "action", t: 180_501, process: 1, action: "stop" });
    s.exit(null, true);
    const [f] = findings("agent-cli/failures/model-stall", runOf(s));
    expect(f?.kitBound).toEqual({ option: "--stall-timeout", value: 180_000, unit: "ms", activity: "still retrying: 3 model requests" });
  });

  it("--shutdown-timeout and --turn-timeout (the end of stdin): how long the process took, or that it still ran", () => {
    const shutdown = new Script("shutdown").launch().user("hi").success("ok").send('{"type":"shutdown"}');
    shutdown.events.push({ kind: "exit", t: (shutdown.events.at(-1)?.t ?? 0) + 2500, process: 1, code: 0, signal: null, killedByKit: false });
    const [late] = findings("agent-cli/termination/shutdown-line", runOf(shutdown));
    expect(late?.kitBound).toEqual({ option: "--shutdown-timeout", value: 1000, unit: "ms", activity: "exited after 2500 ms" });

    const eof = new Script("basic").launch().user("hi").success("ok");
    eof.events.push({ kind: "action", t: 100, process: 1, action: "close-stdin" });
    eof.events.push({ kind: "exit", t: 100 + 31_000, process: 1, code: null, signal: "SIGKILL", killedByKit: true });
    const [running] = findings("agent-cli/termination/stdin-eof", runOf(eof));
    expect(running?.kitBound).toEqual({ option: "--turn-timeout", value: 30_000, unit: "ms", activity: "still running after 31000 ms; the kit killed it" });
  });

  it("--task-wait-slack: a pending task given up late", () => {
    const run = managedRun([managedTranscript({ ...OPENAI_JSON, pendingWaitMs: 13_000 })]);
    const late = judgeAgentRun(run, (c) => c === "agent-cli/managed-tasks/wait-limit").results.find((r) => r.id === "agent-cli/managed-tasks/wait-limit")?.findings[0];
    expect(late?.kitBound).toEqual({ option: "--task-wait-slack", value: 10_000, unit: "ms", activity: "still waiting for the pending task (it stopped 13.0 s after submitting it)" });
  });

  it("--task-output-limit (a size): the whole 1 MiB output sent back; --turn-timeout: a turn the model keeps calling the tool in", () => {
    const judged = (id: string, run: ReturnType<typeof managedRun>): Finding[] => judgeAgentRun(run, (c) => c === id).results.find((r) => r.id === id)?.findings ?? [];
    const [uncut] = judged("agent-cli/managed-tasks/bounded-output", managedRun([managedTranscript({ ...OPENAI_JSON, cut: 2 * 1024 * 1024 })]));
    expect(uncut?.kitBound).toMatchObject({ option: "--task-output-limit", value: 262_144, unit: "bytes", activity: expect.stringMatching(/^sending the model a tool result of \d+ bytes$/) });
    const endless = judged("agent-cli/managed-tasks/call-limit", managedRun([managedTranscript({ ...OPENAI_JSON, callLimit: "never" })]));
    expect(endless[0]?.kitBound).toMatchObject({ option: "--turn-timeout", value: 30_000, unit: "ms", activity: expect.stringMatching(/^still in the turn .*: \d+ model requests$/) });
  });

  it("not the Desktop's SIGTERM grace, and not a finding the contract decides alone", () => {
    const sigterm = new Script("sigterm-idle").launch().user("hi").success("ok");
    sigterm.events.push({ kind: "action", t: 100, process: 1, action: "sigterm" });
    sigterm.events.push({ kind: "exit", t: 100 + 5000, process: 1, code: null, signal: "SIGKILL", killedByKit: true });
    expect(findings("agent-cli/termination/sigterm-idle", runOf(sigterm))[0]?.kitBound).toBeUndefined();
    const double = new Script("basic").launch().user("hi").success("ok").success("ok");
    expect(findings("agent-cli/turns/one-terminal-per-turn", runOf(double))[0]?.kitBound).toBeUndefined();
  });
});

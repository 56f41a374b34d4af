/**
 * How a fuzzed agent-cli session is judged: its transcript, with the checks `run` uses, on the
 * clauses a fuzzed session can break, so the same behaviour gets the same clause and level.
 * What the fixed suite judges under a clause a session does not judge is said here: an exit
 * while a turn awaited its terminal event is no-exit-mid-turn (the first turn too), an exit at
 * rest is no clause's (restExit describes it for the report's notes).
 */
import type { Input, ProcessView } from "../../core/agent-cli/analysis.js";
import { turnTagOf, userTurns } from "../../core/agent-cli/analysis.js";
import { finding, processesOf, type AgentRun } from "../../core/agent-cli/checks/helpers.js";
import { ownExit } from "../../core/agent-cli/checks/refusals.js";
import { judgeAgentRun } from "../../core/agent-cli/judge.js";
import type { Transcript } from "../../core/agent-cli/types.js";
import { makeRedactor, redactDeep } from "../../core/report/redact.js";
import type { ClauseResult, Finding } from "../../core/report/types.js";

/** The clauses a fuzzed session can break (the others need the fixed scenarios). */
export const FUZZ_AGENT_CLAUSES: readonly string[] = [
  "agent-cli/input/survives-malformed-line",
  "agent-cli/output/json-object-lines",
  "agent-cli/output/no-partial-line",
  "agent-cli/output/line-size",
  "agent-cli/output/typed-events",
  "agent-cli/session/id-form",
  "agent-cli/session/stable-id",
  "agent-cli/turns/one-terminal-per-turn",
  "agent-cli/turns/no-exit-mid-turn",
  "agent-cli/turns/result-shape",
  "agent-cli/turns/error-code",
  "agent-cli/turns/usage-counts",
  "agent-cli/turns/text-blocks",
  "agent-cli/fidelity/streamed-text",
  "agent-cli/fidelity/result-text",
  "agent-cli/secrets/token-not-echoed",
];

const SELECTED = new Set(FUZZ_AGENT_CLAUSES);
const NO_EXIT_MID_TURN = "agent-cli/turns/no-exit-mid-turn";

/** What one judgement of a session's transcript gives: every fuzzed clause's result, and the findings of those that failed (catalogue order). */
export interface SessionJudgement {
  results: ClauseResult[];
  findings: Finding[];
}

/** Judges a transcript on FUZZ_AGENT_CLAUSES with the checks `run` uses; the findings are marked found by fuzzing. */
export function judgeFuzzTranscript(transcript: Transcript, token: string | undefined, turnTimeoutMs: number, secrets: readonly string[] = token !== undefined ? [token] : []): SessionJudgement {
  const run: AgentRun = { mode: transcript.mode, transcripts: [transcript], ...(token !== undefined ? { token } : {}), turnTimeoutMs, offline: false };
  const results = judgeAgentRun(run, (id) => SELECTED.has(id)).results.map((r): ClauseResult => {
    const death = r.id === NO_EXIT_MID_TURN && r.status !== "fail" ? deathInTurn(transcript) : undefined;
    if (death !== undefined) return { id: r.id, level: r.level, title: r.title, status: "fail", judged: Math.max(1, r.judged), findings: [death] };
    return r.status === "fail" ? { ...r, findings: r.findings.map((f): Finding => ({ ...f, foundBy: "fuzz" })) } : r;
  });
  // The session's keys never leave the kit, not even in a finding about a leak.
  const redacted = redactDeep(results, makeRedactor(secrets));
  return { results: redacted, findings: redacted.flatMap((r) => r.findings) };
}

/** A process that ended on its own (not stopped by the kit, not after the host ended it), with the turn it left waiting, if any. */
function ownExits(transcript: Transcript): { view: ProcessView; exit: NonNullable<ProcessView["exit"]>; pending?: Input }[] {
  return processesOf(transcript).flatMap((view) => {
    const exit = view.exit;
    if (exit === undefined || !ownExit(view)) return [];
    // A turn the kit gave up waiting for is agent-cli/turns/one-terminal-per-turn's, not an exit's.
    const pending = userTurns(view).find((t) => t.at < exit.at && t.terminals.length === 0 && !view.events.some(({ event, at }) => event.kind === "timeout" && at > t.at && at < exit.at));
    return [{ view, exit, ...(pending !== undefined ? { pending } : {}) }];
  });
}

/**
 * An exit on the process's own while a turn awaited its terminal event, when the check did not
 * report it: the fixed suite counts an exit during the first turn under session/stays-up (a
 * refused launch), which a fuzzed session does not judge; there a generated turn, not the launch,
 * is what the process died on.
 */
function deathInTurn(transcript: Transcript): Finding | undefined {
  const dead = ownExits(transcript).find((e) => e.pending !== undefined);
  if (dead?.pending === undefined) return undefined;
  const { view, exit, pending } = dead;
  return {
    ...finding(NO_EXIT_MID_TURN, { transcript, lines: pending.output.slice(-2), stderrOf: view.process, events: [{ event: exit, at: exit.at }] }, `the process exited on its own while turn ${turnTagOf(pending.message) ?? "?"} awaited its terminal event`, { expected: "a terminal event first" }),
    foundBy: "fuzz",
  };
}

/**
 * How a process that ended on its own with no turn pending is described, when one did: no
 * clause judges an exit at rest (agent-cli/session/stays-up judges one before the first
 * answered turn, in the fixed suite; one after a malformed line is
 * agent-cli/input/survives-malformed-line's), so a fuzzed session notes it and ends there.
 */
export function restExit(transcript: Transcript): string | undefined {
  const rest = ownExits(transcript).find((e) => e.pending === undefined && e.view.inputs.filter((i) => i.at < e.exit.at).at(-1)?.kind !== "malformed");
  if (rest === undefined) return undefined;
  const turns = userTurns(rest.view).filter((t) => t.at < rest.exit.at).length;
  return turns === 0 ? "before the host wrote a line" : `at rest, after ${turns} answered turn(s)`;
}

import type { Check } from "../../report/judge.js";
import type { Finding, KitBound } from "../../report/types.js";
import { callsIn, directiveOf, endedWithoutError, type Segment } from "../analysis.js";
import { isRefusedCall } from "../causes.js";
import { DEFAULT_BOUNDS } from "../scenarios.js";
import type { Transcript, TranscriptEvent } from "../types.js";
import { finding, judgeSome, processesOf, ran, scenarioMissing, show, skip, type AgentRun } from "./helpers.js";
import { secondsText as seconds } from "../../printable.js";
import { kitBound, requestCount } from "./kit-bound.js";
import { allSegments, missingTerminal } from "./turns.js";

const ERROR = "agent-cli/failures/model-error";
const STALL = "agent-cli/failures/model-stall";

/** The time bounds the failure clauses state (the kit's --stall-timeout default), in ms. */
export const FAILURE_BOUNDS: Readonly<Record<string, readonly number[]>> = {
  [ERROR]: [DEFAULT_BOUNDS.stallTimeoutMs],
  [STALL]: [DEFAULT_BOUNDS.stallTimeoutMs],
};

interface Probe {
  clause: string;
  /** "HTTP 500" / "a stalled stream": what the model did. */
  what: string;
  /** The failing turn, for notes. */
  turn: string;
  /** The scenario that probes it, and what the model never did when no turn of it reached the model. */
  scenario: string;
  never: string;
  picks: (directive: Record<string, string>) => boolean;
}

const PROBES: readonly Probe[] = [
  { clause: ERROR, what: "HTTP 500", turn: "the HTTP 500 turn", scenario: "failures-error", never: "answered HTTP 500", picks: (d) => Number(d.status) >= 500 },
  { clause: STALL, what: "a stalled stream", turn: "the stalled turn", scenario: "failures-stall", never: "stalled", picks: (d) => d.stall === "1" },
];

interface Case {
  transcript: Transcript;
  segment: Segment;
  /** The next user turn of the same process, if the kit sent one. */
  next: Segment | undefined;
  /** Model requests the failing turn made (retries included). */
  requests: number;
}

/**
 * Failing turns scripted by their own directive whose request reached the model and was not
 * refused by the fixture itself (retries may spill model calls into later turns; a turn that
 * never reached the model is not one).
 */
function casesOf(run: AgentRun, probe: Probe): Case[] {
  const all = allSegments(run).filter(({ transcript }) => transcript.stdoutOnly !== true);
  return all.flatMap(({ transcript, segment }, i) => {
    // A request the fixture refused itself (a wrong path, no key) never met the scripted failure.
    const requests = callsIn(transcript, segment).filter((call) => !isRefusedCall(call)).length;
    if (!probe.picks(directiveOf(segment.input?.message) ?? {}) || requests === 0) return [];
    const next = all.slice(i + 1).find((n) => n.transcript === transcript && n.segment.process === segment.process)?.segment;
    return [{ transcript, segment, next, requests }];
  });
}

export { seconds };

/** Why the failing turn has no terminal event: the kit's wait ran out, or the process ended. */
function missing(c: Case): { message: string; seen: string; events: { event: TranscriptEvent; at: number }[]; bound?: KitBound } {
  const input = c.segment.input;
  const view = processesOf(c.transcript).find((v) => v.process === c.segment.process);
  const after = (view?.events ?? []).filter(({ at }) => input !== undefined && at > input.at);
  const timeout = after.find(({ event }) => event.kind === "timeout");
  const exit = view?.exit !== undefined && input !== undefined && view.exit.at > input.at ? view.exit : undefined;
  const sent = input !== undefined ? [{ event: input.event as TranscriptEvent, at: input.at }] : [];
  if (timeout !== undefined && timeout.event.kind === "timeout" && (exit === undefined || timeout.at < exit.at)) {
    const bound = seconds(timeout.event.afterMs);
    const activity = c.requests > 1 ? `still retrying: ${requestCount(c.requests)}` : `waiting on its ${requestCount(1)}`;
    return { message: `no terminal event within ${bound} (--stall-timeout, the kit's bound); the kit stopped waiting`, seen: `still running after ${bound}, ${requestCount(c.requests)}`, events: [...sent, timeout], bound: kitBound("--stall-timeout", timeout.event.afterMs, activity) };
  }
  if (exit !== undefined && input !== undefined) {
    const took = seconds(exit.t - input.event.t);
    return { message: `the process exited ${took} after the turn began without ending it`, seen: `exit ${exit.code ?? exit.signal ?? "?"} after ${took}`, events: [...sent, { event: exit, at: exit.at }] };
  }
  return { message: "the turn has no terminal event", seen: "no terminal event", events: sent };
}

function judgeCase(probe: Probe, c: Case): Finding[] | undefined {
  const { transcript, segment, next } = c;
  const terminal = segment.terminal;
  // The kit stopped the probe before its bound ran out (--run-timeout, or a CLI that answers nothing): unjudged.
  if (terminal === undefined && missingTerminal(transcript, segment) === "host") return undefined;
  if (terminal === undefined || segment.input === undefined) {
    // The next turn was not sent (or only queued behind this one): nothing is said about it.
    const why = missing(c);
    const found = finding(probe.clause, { transcript, lines: segment.output.slice(-2), events: why.events, stderrOf: segment.process }, `after ${probe.what}: ${why.message}`, { expected: "one result with is_error true", seen: why.seen });
    return [why.bound !== undefined ? { ...found, kitBound: why.bound } : found];
  }
  const found: Finding[] = [];
  const took = seconds(terminal.event.t - segment.input.event.t);
  const t = terminal.object;
  if (t?.type === "message_stop") {
    found.push(finding(probe.clause, { transcript, lines: segment.output.slice(-2) }, `after ${probe.what} the turn ended with message_stop (after ${took}), which ends a turn without an error: the Desktop shows it done and the failure is hidden`, { expected: "one result with is_error true (the contract's failure form)", seen: show(terminal.event.line) }));
  } else if (!(t?.type === "result" && t.is_error === true)) {
    found.push(finding(probe.clause, { transcript, lines: segment.output.slice(-2) }, `after ${probe.what} the turn did not end with an error result (it ended after ${took})`, { expected: "one result with is_error true", seen: show(terminal.event.line) }));
  }
  if (next === undefined) {
    const view = processesOf(transcript).find((v) => v.process === segment.process);
    const exit = view?.exit;
    found.push(finding(probe.clause, { transcript, lines: [terminal], ...(exit ? { events: [{ event: exit as TranscriptEvent, at: exit.at }] } : {}), stderrOf: segment.process }, `after ${probe.what} the process could not be given the next turn`, { expected: "the process keeps serving", seen: exit ? `exit ${exit.code ?? exit.signal ?? "?"}` : "the next line was not written" }));
  } else if (!endedWithoutError(next.terminal)) {
    found.push(finding(probe.clause, { transcript, lines: next.output.slice(-2) }, `the turn after ${probe.what} was not answered with success`, { expected: "the process keeps serving", seen: next.terminal ? show(next.terminal.event.line) : "no terminal event" }));
  }
  return found;
}

function failureCheck(probe: Probe): Check<AgentRun> {
  return {
    clause: probe.clause,
    judge: (run) =>
      judgeSome(casesOf(run, probe), (c) => judgeCase(probe, c), skip(ran(run, probe.scenario) ? `no turn of the ${probe.scenario} scenario reached the kit's model, so it never ${probe.never}: see agent-cli/turns for its turns` : scenarioMissing(run, probe.scenario))),
  };
}

export const failureChecks: Check<AgentRun>[] = PROBES.map(failureCheck);

/** How long the CLI took to end each failing turn it ended: notes for the report. */
export function failureNotes(run: AgentRun): string[] {
  return PROBES.flatMap((probe) =>
    casesOf(run, probe).flatMap(({ segment, requests }) => {
      if (segment.terminal === undefined || segment.input === undefined) return [];
      const took = seconds(segment.terminal.event.t - segment.input.event.t);
      return [`${probe.clause.replace(/^agent-cli\//, "")}: the CLI ended ${probe.turn} after ${took} (${requestCount(requests)})`];
    }),
  );
}

import type { Check } from "../../report/judge.js";
import type { Judgement } from "../../report/types.js";
import { userTurns, type ProcessView } from "../analysis.js";
import { howFound, leftoverSeen, NO_PROC_REASON } from "../../leftovers.js";
import { boundsOf, DEFAULT_BOUNDS } from "../scenarios.js";
import type { LeftoversEvent, Transcript, TranscriptEvent } from "../types.js";
import { finding, judgeEach, judgeSome, liveTranscripts, processesOf, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { kitBound } from "./kit-bound.js";
import { refusedViews, scenarioUnjudged } from "./refusals.js";

/** The Desktop follows SIGTERM with SIGKILL after this long (upstream facts): the SIGTERM clauses' bound. */
export const SIGTERM_GRACE_MS = 3000;

const SHUTDOWN = "agent-cli/termination/shutdown-line";

/** The time bounds the termination clauses state, in ms (stdin-eof states none: it is --turn-timeout). */
export const TERMINATION_BOUNDS: Readonly<Record<string, readonly number[]>> = {
  [SHUTDOWN]: [DEFAULT_BOUNDS.shutdownTimeoutMs],
  "agent-cli/termination/sigterm-idle": [SIGTERM_GRACE_MS],
  "agent-cli/termination/sigterm-mid-turn": [SIGTERM_GRACE_MS],
};

type Trigger = (event: TranscriptEvent) => boolean;

/**
 * Why no process of `scenario` could be judged on `what` the host did, in words true of the
 * run: the scenario did not run, its launch was refused, the process was gone before the kit
 * did it, or the kit stopped the scenario earlier.
 */
function notTriggered(run: AgentRun, scenario: string, did: string): Unjudged {
  return scenarioUnjudged(run, scenario, `the kit never ${did} in the ${scenario} scenario: its process was gone, or a turn before went unanswered (see agent-cli/turns)`);
}

/** `option`: the kit's option that sets the bound, when the kit chose it (a failure then rests on the kit's bound, and says so). */
function exitCheck(clause: string, scenario: string, trigger: Trigger, limitMs: (run: AgentRun) => number, what: string, did: string, option?: string): Check<AgentRun> {
  return {
    clause,
    judge: (run) => {
      const refused = refusedViews(run);
      const cases = run.transcripts
        .filter((t) => t.scenario === scenario && t.stdoutOnly !== true)
        .flatMap((transcript) =>
          processesOf(transcript).flatMap((view) => {
            const start = view.events.find(({ event }) => trigger(event));
            // An exit before the host asked for one is judged elsewhere (stays-up, no-exit-mid-turn), as is a refused launch.
            if (start === undefined || refused.has(view) || (view.exit !== undefined && view.exit.at < start.at)) return [];
            return [{ transcript, view, start }];
          }),
        );
      return judgeSome(
        cases,
        ({ transcript, view, start }) => {
          const limit = limitMs(run);
          const exit = view.exit;
          const took = exit === undefined ? undefined : exit.t - start.event.t;
          if (exit !== undefined && !exit.killedByKit && took !== undefined && took <= limit) return [];
          // The kit ended the process before the bound ran out (--run-timeout): nothing to judge.
          if (exit !== undefined && exit.killedByKit && took !== undefined && took < limit) return undefined;
          const seen = exit === undefined ? "still running" : exit.killedByKit ? `still running after ${Math.round(took ?? 0)} ms; the kit killed it` : `exited after ${Math.round(took ?? 0)} ms`;
          const found = finding(clause, { transcript, events: [start, ...(exit ? [{ event: exit as TranscriptEvent, at: exit.at }] : [])], stderrOf: view.process }, `the process did not exit within ${limit} ms of ${what}`, { expected: `exit within ${limit} ms`, seen });
          return [option === undefined ? found : { ...found, kitBound: kitBound(option, limit, seen) }];
        },
        notTriggered(run, scenario, did),
      );
    },
  };
}

const NO_LEFTOVERS = "agent-cli/termination/no-leftover-processes";

/** Every launch's look for leftovers (recorded after its exit), each finding one process the kit found and ended. */
function judgeLeftovers(run: AgentRun): Judgement {
  const looks = liveTranscripts(run).flatMap((transcript) => transcript.events.flatMap((event, at) => (event.kind === "leftovers" ? [{ transcript, event, at }] : [])));
  const scanned = looks.filter(({ event }) => event.scan === "proc");
  if (scanned.length === 0) {
    if (looks.length > 0) return skip(NO_PROC_REASON);
    return skip(run.offline ? "the recorded transcripts hold no leftovers events (recorded by hand, or before the kit looked for leftovers): run the CLI live with `awp-conformance run` to judge this clause" : "no process of the CLI was launched");
  }
  const findings = scanned.flatMap(({ transcript, event, at }) => {
    const exit = processesOf(transcript).find((view) => view.process === event.process)?.exit;
    const events = [...(exit ? [{ event: exit as TranscriptEvent, at: exit.at }] : []), { event: event as LeftoversEvent, at }];
    const where = { transcript, events, stderrOf: event.process };
    const listed = event.found.map((leftover) =>
      finding(NO_LEFTOVERS, where, `a process the CLI started outlived it, outside its process group: pid ${leftover.pid}, found by ${howFound(leftover)}`, {
        expected: "every process the CLI started has exited when the CLI's process exits",
        seen: leftoverSeen(leftover),
      }),
    );
    return event.dropped === undefined ? listed : [...listed, finding(NO_LEFTOVERS, where, `${event.dropped} more processes the CLI started outlived it, outside its process group (ended by the kit, not listed)`)];
  });
  return { outcome: "judged", judged: scanned.length, findings };
}

const isSigterm: Trigger = (e) => e.kind === "action" && e.action === "sigterm";
const isShutdownLine: Trigger = (e) => e.kind === "send" && e.line.replace(/\s/g, "") === '{"type":"shutdown"}';
const isCloseStdin: Trigger = (e) => e.kind === "action" && e.action === "close-stdin";
/** What else ends a process: after one of these, its exit status is the host's doing. */
const isForcedEnd: Trigger = (e) => e.kind === "action" && e.action !== "close-stdin";

const CLEAN_EXIT = "agent-cli/termination/clean-exit-status";

interface EndCase {
  transcript: Transcript;
  view: ProcessView;
  start: { event: TranscriptEvent; at: number };
  what: string;
}

/**
 * The ends the host asked for and the CLI carried out by itself: the exit after the shutdown
 * line, or after the end of stdin with no turn pending (at rest), with no signal or kit stop
 * in between. A refused launch has its own clause (session/refusal-reported).
 */
function requestedEnds(run: AgentRun): EndCase[] {
  const refused = refusedViews(run);
  return liveTranscripts(run).flatMap((transcript) =>
    processesOf(transcript).flatMap((view): EndCase[] => {
      const exit = view.exit;
      if (exit === undefined || exit.killedByKit || refused.has(view)) return [];
      const start = view.events.find(({ event, at }) => at < exit.at && (isShutdownLine(event) || (isCloseStdin(event) && atRest(view, at))));
      if (start === undefined || view.events.some(({ event, at }) => at > start.at && at < exit.at && isForcedEnd(event))) return [];
      return [{ transcript, view, start, what: isShutdownLine(start.event) ? "the shutdown line" : "the end of stdin, with no turn pending" }];
    }),
  );
}

/** Every user turn written before `at` had its terminal event by then. */
function atRest(view: ProcessView, at: number): boolean {
  return userTurns(view).every((turn) => turn.at > at || turn.terminals.some((t) => t.at < at));
}

function judgeCleanExit(run: AgentRun): Judgement {
  const ran = ["shutdown", "basic"].filter((name) => run.transcripts.some((t) => t.scenario === name && t.stdoutOnly !== true));
  const none = ran.length === 0
    ? skip(`neither the shutdown nor the basic scenario ran: ${run.offline ? "record them (awp-conformance record --scenario shutdown, then basic) and check those transcripts" : "run them with --scenario shutdown --scenario basic"}`)
    : skip("no process ended by itself on the shutdown line or at the end of stdin with no turn pending (see agent-cli/termination/shutdown-line and stdin-eof for how they ended)");
  return judgeEach(
    requestedEnds(run),
    ({ transcript, view, start, what }) => {
      const exit = view.exit;
      if (exit === undefined || exit.code === 0) return [];
      const status = exit.code !== null ? `status ${exit.code}` : `signal ${exit.signal ?? "?"}`;
      return [finding(CLEAN_EXIT, { transcript, events: [start, { event: exit as TranscriptEvent, at: exit.at }], stderrOf: view.process }, `after ${what}, the process ended with ${status}`, { expected: "exit status 0", seen: status })];
    },
    none,
  );
}

export const terminationChecks: Check<AgentRun>[] = [
  exitCheck(SHUTDOWN, "shutdown", isShutdownLine, (run) => boundsOf(run).shutdownTimeoutMs, "the shutdown line", "wrote the shutdown line", "--shutdown-timeout"),
  exitCheck("agent-cli/termination/sigterm-idle", "sigterm-idle", isSigterm, () => SIGTERM_GRACE_MS, "SIGTERM", "sent SIGTERM"),
  exitCheck("agent-cli/termination/sigterm-mid-turn", "sigterm-mid-turn", isSigterm, () => SIGTERM_GRACE_MS, "SIGTERM", "sent SIGTERM"),
  exitCheck("agent-cli/termination/stdin-eof", "basic", isCloseStdin, (run) => run.turnTimeoutMs, "the end of stdin", "closed stdin", "--turn-timeout"),
  { clause: CLEAN_EXIT, judge: judgeCleanExit },
  { clause: NO_LEFTOVERS, judge: judgeLeftovers },
];

import type { Check } from "../../report/judge.js";
import type { Judgement } from "../../report/types.js";
import { howFound, leftoverSeen, NO_PROC_REASON } from "../../leftovers.js";
import { boundsOf, DEFAULT_BOUNDS } from "../scenarios.js";
import type { LeftoversEvent, TranscriptEvent } from "../types.js";
import { finding, judgeSome, liveTranscripts, processesOf, scenarioMissing, skip, type AgentRun } from "./helpers.js";
import { kitBound } from "./kit-bound.js";

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

/** `option`: the kit's option that sets the bound, when the kit chose it (a failure then rests on the kit's bound, and says so). */
function exitCheck(clause: string, scenario: string, trigger: Trigger, limitMs: (run: AgentRun) => number, what: string, option?: string): Check<AgentRun> {
  return {
    clause,
    judge: (run) => {
      const cases = run.transcripts
        .filter((t) => t.scenario === scenario && t.stdoutOnly !== true)
        .flatMap((transcript) =>
          processesOf(transcript).flatMap((view) => {
            const start = view.events.find(({ event }) => trigger(event));
            // An exit before the host asked for one is judged elsewhere (stays-up, no-exit-mid-turn).
            if (start === undefined || (view.exit !== undefined && view.exit.at < start.at)) return [];
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
        skip(scenarioMissing(run, scenario)),
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

export const terminationChecks: Check<AgentRun>[] = [
  exitCheck(SHUTDOWN, "shutdown", (e) => e.kind === "send" && e.line.replace(/\s/g, "") === '{"type":"shutdown"}', (run) => boundsOf(run).shutdownTimeoutMs, "the shutdown line", "--shutdown-timeout"),
  exitCheck("agent-cli/termination/sigterm-idle", "sigterm-idle", isSigterm, () => SIGTERM_GRACE_MS, "SIGTERM"),
  exitCheck("agent-cli/termination/sigterm-mid-turn", "sigterm-mid-turn", isSigterm, () => SIGTERM_GRACE_MS, "SIGTERM"),
  exitCheck("agent-cli/termination/stdin-eof", "basic", (e) => e.kind === "action" && e.action === "close-stdin", (run) => run.turnTimeoutMs, "the end of stdin", "--turn-timeout"),
  { clause: NO_LEFTOVERS, judge: judgeLeftovers },
];

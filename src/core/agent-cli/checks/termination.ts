import type { Check } from "../../report/judge.js";
import { boundsOf, DEFAULT_BOUNDS } from "../scenarios.js";
import type { TranscriptEvent } from "../types.js";
import { finding, judgeSome, processesOf, skip, type AgentRun } from "./helpers.js";

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

function exitCheck(clause: string, scenario: string, trigger: Trigger, limitMs: (run: AgentRun) => number, what: string): Check<AgentRun> {
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
          return [finding(clause, { transcript, events: [start, ...(exit ? [{ event: exit as TranscriptEvent, at: exit.at }] : [])], stderrOf: view.process }, `the process did not exit within ${limit} ms of ${what}`, { expected: `exit within ${limit} ms`, seen })];
        },
        skip(`the ${scenario} scenario did not run`),
      );
    },
  };
}

const isSigterm: Trigger = (e) => e.kind === "action" && e.action === "sigterm";

export const terminationChecks: Check<AgentRun>[] = [
  exitCheck(SHUTDOWN, "shutdown", (e) => e.kind === "send" && e.line.replace(/\s/g, "") === '{"type":"shutdown"}', (run) => boundsOf(run).shutdownTimeoutMs, "the shutdown line"),
  exitCheck("agent-cli/termination/sigterm-idle", "sigterm-idle", isSigterm, () => SIGTERM_GRACE_MS, "SIGTERM"),
  exitCheck("agent-cli/termination/sigterm-mid-turn", "sigterm-mid-turn", isSigterm, () => SIGTERM_GRACE_MS, "SIGTERM"),
  exitCheck("agent-cli/termination/stdin-eof", "basic", (e) => e.kind === "action" && e.action === "close-stdin", (run) => run.turnTimeoutMs, "the end of stdin"),
];

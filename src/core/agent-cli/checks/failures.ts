import type { Check } from "../../report/judge.js";
import { callsIn, directiveOf, type Segment } from "../analysis.js";
import type { Transcript } from "../types.js";
import { finding, judgeEach, show, skip, type AgentRun } from "./helpers.js";
import { allSegments } from "./turns.js";

/** A turn whose own directive scripts the failure (retries may spill model calls into later turns). */
function failureCheck(clause: string, what: string, picks: (d: Record<string, string>) => boolean): Check<AgentRun> {
  return {
    clause,
    judge: (run) => {
      const all = allSegments(run).filter(({ transcript }) => transcript.stdoutOnly !== true);
      const cases = all.flatMap(({ transcript, segment }, i) =>
        picks(directiveOf(segment.input?.message) ?? {}) && callsIn(transcript, segment).length > 0
          ? [{ transcript, segment, next: all.slice(i + 1).find((n) => n.transcript === transcript && n.segment.process === segment.process)?.segment }]
          : [],
      );
      return judgeEach(
        cases,
        ({ transcript, segment, next }: { transcript: Transcript; segment: Segment; next: Segment | undefined }) => {
          const t = segment.terminal?.object;
          const found = [];
          if (!(t?.type === "result" && t.is_error === true)) {
            found.push(finding(clause, { transcript, lines: segment.output.slice(-2) }, `after ${what} the turn did not end with an error result`, { expected: "one result with is_error true", seen: segment.terminal ? show(segment.terminal.event.line) : "no terminal event" }));
          }
          const n = next?.terminal?.object;
          if (!(n?.type === "result" && n.is_error === false)) {
            found.push(finding(clause, { transcript, lines: next?.output.slice(-2) ?? [] }, `the turn after ${what} was not answered with success`, { expected: "the process keeps serving", seen: next?.terminal ? show(next.terminal.event.line) : "no terminal event" }));
          }
          return found;
        },
        skip(`the model never ${what === "HTTP 500" ? "answered HTTP 500" : "stalled"} in a turn (does the CLI call the kit's model?)`),
      );
    },
  };
}

export const failureChecks: Check<AgentRun>[] = [
  failureCheck("agent-cli/failures/model-error", "HTTP 500", (d) => Number(d.status) >= 500),
  failureCheck("agent-cli/failures/model-stall", "a stalled stream", (d) => d.stall === "1"),
];

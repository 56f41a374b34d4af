import type { Check } from "../../report/judge.js";
import { callsIn, streamedText, type Segment } from "../analysis.js";
import type { Transcript } from "../types.js";
import { allProcesses, finding, judgeEach, show, skip, type AgentRun } from "./helpers.js";
import { allSegments } from "./turns.js";

const isSuccess = (segment: Segment): boolean => segment.terminal?.object?.type === "result" && segment.terminal.object.is_error === false;

/** What the model returned for a turn: all its replies together, or any one of them. */
function expectedTexts(transcript: Transcript, segment: Segment): string[] {
  const replies = callsIn(transcript, segment).filter((c) => c.outcome === "complete" && c.replyText !== "").map((c) => c.replyText);
  if (replies.length === 0) return [];
  return [replies.join(""), ...replies];
}

function describeDifference(seen: string, expected: string): string {
  let i = 0;
  while (i < seen.length && i < expected.length && seen[i] === expected[i]) i++;
  return `${seen.length} of ${expected.length} characters; first difference at character ${i}: ${show(seen.slice(i, i + 40))} instead of ${show(expected.slice(i, i + 40))}`;
}

export const fidelityChecks: Check<AgentRun>[] = [
  {
    clause: "agent-cli/fidelity/streamed-text",
    judge: (run) =>
      judgeEach(
        allSegments(run).filter(({ transcript, segment }) => isSuccess(segment) && expectedTexts(transcript, segment).length > 0),
        ({ transcript, segment }) => {
          const expected = expectedTexts(transcript, segment);
          const seen = streamedText(segment.output);
          return expected.includes(seen) ? [] : [finding("agent-cli/fidelity/streamed-text", { transcript, lines: segment.output.slice(-3) }, "the streamed text differs from what the model returned", { expected: show(expected[0]), seen: describeDifference(seen, expected[0] ?? "") })];
        },
        skip("no successful turn with a model reply to compare (does the CLI call the kit's model?)"),
      ),
  },
  {
    clause: "agent-cli/fidelity/result-text",
    judge: (run) =>
      judgeEach(
        allSegments(run).filter(({ segment }) => isSuccess(segment) && typeof segment.terminal?.object?.result === "string"),
        ({ transcript, segment }) => {
          const result = segment.terminal?.object?.result as string;
          const expected = expectedTexts(transcript, segment);
          const reference = expected.length > 0 ? expected : [streamedText(segment.output)];
          return reference.includes(result) ? [] : [finding("agent-cli/fidelity/result-text", { transcript, lines: segment.terminal ? [segment.terminal] : [] }, "the success result does not carry the whole text of the turn", { expected: show(reference[0]), seen: describeDifference(result, reference[0] ?? "") })];
        },
        skip("no success result carried the text"),
      ),
  },
  {
    clause: "agent-cli/secrets/token-not-echoed",
    judge: (run) => {
      const token = run.token;
      if (token === undefined) return skip(run.offline ? "needs a live run with {{fixture.token}}" : "the launch configuration does not use {{fixture.token}}, so there is no key to watch for");
      return judgeEach(
        allProcesses(run),
        ({ transcript, item }) => {
          const leaks = item.events.filter(({ event }) => (event.kind === "stdout" && event.line.includes(token)) || (event.kind === "stderr" && event.text.includes(token)));
          return leaks.length === 0 ? [] : [finding("agent-cli/secrets/token-not-echoed", { transcript, events: leaks.slice(0, 3) }, `the model API key appeared ${leaks.length} time(s) in the CLI's output`, { expected: "never printed" })];
        },
        skip("no process ran"),
      );
    },
  },
];

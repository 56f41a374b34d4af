import type { Check } from "../../report/judge.js";
import { callsIn, endedWithoutError, streamedText, type Segment } from "../analysis.js";
import { modelCause } from "../causes.js";
import type { Transcript } from "../types.js";
import { allProcesses, captureOr, finding, judgeEach, notApplicable, show, skip, type AgentRun } from "./helpers.js";
import { findPiecesInOrder } from "./text-match.js";
import { allSegments } from "./turns.js";


/** The texts the model returned in a turn, in the order it returned them. */
export function modelPieces(transcript: Transcript, segment: Segment): string[] {
  return callsIn(transcript, segment)
    .filter((c) => c.outcome === "complete" && c.replyText !== "")
    .map((c) => c.replyText);
}

/**
 * The turn shows another turn's reply instead of its own: it was answered out of order (or
 * merged), which agent-cli/turns/terminal-in-order reports; comparing texts would only
 * repeat that under another clause.
 */
function showsAnotherTurn(transcript: Transcript, segment: Segment, text: string, own: readonly string[]): boolean {
  if (own.every((piece) => text.includes(piece))) return false;
  const others = allSegments({ transcripts: [transcript] })
    .filter(({ segment: other }) => other.process === segment.process && other !== segment && other.input !== undefined)
    .flatMap(({ segment: other }) => modelPieces(transcript, other))
    .filter((piece) => !own.includes(piece));
  return others.some((piece) => text.includes(piece));
}

/** Successful turns with model text to compare, that are not another turn's answer. */
function comparable(run: AgentRun, text: (segment: Segment) => string | undefined): { transcript: Transcript; segment: Segment; pieces: string[]; seen: string }[] {
  return allSegments(run).flatMap(({ transcript, segment }) => {
    const seen = endedWithoutError(segment.terminal) ? text(segment) : undefined;
    if (seen === undefined) return [];
    const model = modelPieces(transcript, segment);
    // A plain stdout capture has no model side: the streamed text is what the result must carry.
    const pieces = model.length > 0 ? model : transcript.stdoutOnly === true ? [streamedText(segment.output)] : [];
    if (pieces.length === 0 || showsAnotherTurn(transcript, segment, seen, model)) return [];
    return [{ transcript, segment, pieces, seen }];
  });
}

export const fidelityChecks: Check<AgentRun>[] = [
  {
    clause: "agent-cli/fidelity/streamed-text",
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      return judgeEach(
        comparable(run, (segment) => (segment.input === undefined ? undefined : streamedText(segment.output))),
        ({ transcript, segment, pieces, seen }) => {
          const problem = findPiecesInOrder(seen, pieces);
          return problem === undefined ? [] : [finding("agent-cli/fidelity/streamed-text", { transcript, lines: segment.output.slice(-3) }, `the model's text does not reach the streamed text intact: ${problem.message}`, { expected: show(pieces[problem.piece]), seen: show(seen) })];
        },
        captureOr(run, "the model's side, so what the model sent", skip("no successful turn with a model reply to compare")),
      );
    },
  },
  {
    clause: "agent-cli/fidelity/result-text",
    judge: (run) => {
      const cause = modelCause(run.transcripts);
      if (cause !== undefined) return skip(cause);
      return judgeEach(
        comparable(run, (segment) => (typeof segment.terminal?.object?.result === "string" ? segment.terminal.object.result : undefined)),
        ({ transcript, segment, pieces, seen: result }) => {
          const problem = findPiecesInOrder(result, pieces);
          return problem === undefined ? [] : [finding("agent-cli/fidelity/result-text", { transcript, lines: segment.terminal ? [segment.terminal] : [] }, `the success result does not carry the whole text of the turn: ${problem.message}`, { expected: show(pieces[problem.piece]), seen: show(result) })];
        },
        notApplicable("no success result carried the turn's text as a string (result is optional on success)"),
      );
    },
  },
  {
    clause: "agent-cli/secrets/token-not-echoed",
    judge: (run) => {
      const token = run.token;
      if (token === undefined) {
        if (run.offline) return skip("needs a live run with {{fixture.token}}: run the CLI with awp-conformance run");
        return notApplicable("the launch configuration hands the CLI no API key ({{fixture.token}} is not used), so there is no secret to watch for; if the CLI takes a key, pass it as --env <NAME>={{fixture.token}}");
      }
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

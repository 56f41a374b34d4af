/**
 * What the consistency checks share: the turns they compare with the model, the model's
 * tool calls and the tool_use blocks a turn shows.
 */
import { callsIn, isRecord, modelCalls, turnTagOf, type OutLine, type Segment } from "../analysis.js";
import { modelCause } from "../causes.js";
import type { ModelCall, Transcript } from "../types.js";
import { notApplicable, skip, type AgentRun, type Unjudged } from "./helpers.js";
import { allSegments } from "./turns.js";

export const CONSISTENCY = "agent-cli/consistency";

/**
 * Another tagged turn's model request arrived while this turn was open: the CLI answered out
 * of order or merged turns, which agent-cli/turns/terminal-in-order reports. Comparing this
 * turn's output with its own model calls would only repeat that under another clause.
 */
export function overlapsAnotherTurn(transcript: Transcript, segment: Segment): boolean {
  const own = turnTagOf(segment.input?.message);
  const end = segment.terminal?.event.t ?? segment.to;
  return modelCalls(transcript).some(({ call, t, process }) => {
    const tag = call.directive?.turn;
    const at = call.startT ?? t;
    return process === segment.process && tag !== undefined && tag !== own && at > segment.from && at < end;
  });
}

/**
 * Why the run has no model side to compare with: the CLI never reached the kit's model (a
 * skip, with the run's shared reason), or only plain stdout captures are judged.
 */
export function noModelSide(run: AgentRun): Unjudged | undefined {
  const cause = modelCause(run.transcripts);
  if (cause !== undefined) return skip(cause);
  const capture = run.transcripts.length > 0 && run.transcripts.every((t) => t.stdoutOnly === true);
  return capture ? notApplicable("a plain stdout capture has no model side to compare with (judge a live run, or a transcript the kit recorded)") : undefined;
}

export interface ModelTurn {
  transcript: Transcript;
  segment: Segment;
  calls: ModelCall[];
}

/**
 * Live user turns that ended with a terminal event, with the model calls the kit can tie to
 * them, leaving out turns that overlap another (terminal-in-order judges those).
 */
export function modelTurns(run: AgentRun): ModelTurn[] {
  return allSegments(run).flatMap(({ transcript, segment }) => {
    if (transcript.stdoutOnly === true || segment.input === undefined || segment.terminal === undefined) return [];
    if (overlapsAnotherTurn(transcript, segment)) return [];
    return [{ transcript, segment, calls: callsIn(transcript, segment) }];
  });
}

/** A tool_use block the turn showed: in an assistant message, or as a raw content_block_start. */
export interface ShownToolUse {
  id: unknown;
  name: unknown;
  line: OutLine;
}

export function shownToolUses(output: readonly OutLine[]): ShownToolUse[] {
  return output.flatMap((line) => {
    const o = line.object;
    if (o?.type === "assistant" && isRecord(o.message) && Array.isArray(o.message.content)) {
      return o.message.content.flatMap((b) => (isRecord(b) && b.type === "tool_use" ? [{ id: b.id, name: b.name, line }] : []));
    }
    if (o?.type === "content_block_start" && isRecord(o.content_block) && o.content_block.type === "tool_use") {
      return [{ id: o.content_block.id, name: o.content_block.name, line }];
    }
    return [];
  });
}

/** The same block shown twice in a row (a raw start, then the assistant message) counts once. */
export function collapseRepeats(blocks: readonly ShownToolUse[]): ShownToolUse[] {
  return blocks.filter((b, i) => i === 0 || blocks[i - 1]?.id !== b.id || blocks[i - 1]?.name !== b.name);
}

/** "#3" for a model call. */
export const callName = (call: ModelCall): string => `#${call.seq}`;

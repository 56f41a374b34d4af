/**
 * Cross-event consistency: what the CLI tells the host agrees with what its model did and
 * with itself across a whole turn (suites/agent-cli/consistency.yaml). The usage rule is in
 * consistency-usage.ts.
 */
import { GATED_SCENARIO, MANAGED_SCENARIO } from "./managed-tasks-own.js";
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { endedWithoutError, isRecord, streamedText, type OutLine, type Segment } from "../analysis.js";
import type { ModelCall } from "../types.js";
import { blockTypes } from "./blocks.js";
import { callName, collapseRepeats, CONSISTENCY, modelTurns, noModelSide, shownToolUses, type ModelTurn, type ShownToolUse } from "./consistency-turns.js";
import { usageCheck } from "./consistency-usage.js";
import { modelPieces } from "./fidelity.js";
import { finding, judgeEach, judgeSome, notApplicable, processesOf, show, type AgentRun } from "./helpers.js";
import { allSegments, noBlocksReason } from "./turns.js";

const MAX_PER_TURN = 3;

/** The model's tool calls of a turn, in order: "#2 read_file (call_2)". */
function describeCalls(calls: readonly ModelCall[]): string {
  return calls.length === 0 ? "none" : calls.map((c) => `${callName(c)} ${c.toolCall?.name ?? "?"} (${c.toolCall?.id ?? "?"})`).join(", ");
}

/** Problems with the tool_use blocks a turn shows, against the model's calls (by id, name and order). */
export function toolUseProblems(shown: readonly ShownToolUse[], calls: readonly ModelCall[]): { block: ShownToolUse; message: string }[] {
  const tools = calls.filter((c) => c.toolCall !== undefined);
  const problems: { block: ShownToolUse; message: string }[] = [];
  let next = 0;
  for (const block of collapseRepeats(shown)) {
    const label = `tool_use block ${show(block.id)} (${show(block.name)})`;
    if (typeof block.id !== "string" || block.id === "") {
      problems.push({ block, message: `a tool_use block (${show(block.name)}) carries no id; the model's calls: ${describeCalls(tools)}` });
      continue;
    }
    const same = tools.filter((c) => c.toolCall?.id === block.id);
    if (same.length === 0) {
      const named = tools.some((c) => c.toolCall?.name === block.name);
      problems.push({ block, message: named ? `${label} does not carry the id of the model's call of that tool; the model's calls: ${describeCalls(tools)}` : `${label} shows a call the model never made in this turn; the model's calls: ${describeCalls(tools)}` });
      continue;
    }
    if (!same.some((c) => c.toolCall?.name === block.name)) {
      problems.push({ block, message: `${label} carries the id of the model's call of ${show(same[0]?.toolCall?.name)}, under another name` });
      continue;
    }
    const at = tools.findIndex((c, i) => i >= next && c.toolCall?.id === block.id);
    if (at === -1) {
      problems.push({ block, message: `${label} comes out of the model's order; the model's calls: ${describeCalls(tools)}` });
      continue;
    }
    next = at + 1;
  }
  return problems;
}

const toolUseIds: Check<AgentRun> = {
  clause: `${CONSISTENCY}/tool-use-ids`,
  judge: (run) => {
    const unjudged = noModelSide(run);
    if (unjudged !== undefined) return unjudged;
    // The managed-task scenarios show their tool calls to agent-cli/managed-tasks/tool-use-shown, which judges the same ids.
    const managed = (turn: ModelTurn): boolean => turn.transcript.scenario === MANAGED_SCENARIO || turn.transcript.scenario === GATED_SCENARIO;
    const showing = modelTurns(run)
      .map((turn) => ({ ...turn, shown: shownToolUses(turn.segment.output) }))
      .filter((turn) => turn.shown.length > 0);
    const turns = showing.filter((turn) => !managed(turn));
    const managedBlocks = showing.filter(managed).reduce((n, turn) => n + collapseRepeats(turn.shown).length, 0);
    return judgeEach(
      turns,
      ({ transcript, shown, calls }) =>
        toolUseProblems(shown, calls)
          .slice(0, MAX_PER_TURN)
          .map(({ block, message }) => finding(`${CONSISTENCY}/tool-use-ids`, { transcript, lines: [block.line] }, message, { expected: "the id and name of one of the model's tool calls, in the model's order", seen: `id ${show(block.id)}, name ${show(block.name)}` })),
      notApplicable(
        managedBlocks > 0
          ? `tool_use blocks were shown only in the managed-task scenarios (${managedBlocks}), whose ids and names agent-cli/managed-tasks/tool-use-shown judges; no other turn showed one`
          : "no turn showed a tool_use block",
      ),
    );
  },
};

/** Delta types and the block types they may continue (others are not judged). */
const DELTA_FITS: Readonly<Record<string, readonly string[]>> = {
  text_delta: ["text"],
  citations_delta: ["text"],
  input_json_delta: ["tool_use", "server_tool_use"],
  thinking_delta: ["thinking"],
  signature_delta: ["thinking"],
};
const KNOWN_BLOCKS = new Set(Object.values(DELTA_FITS).flat());

/** Blocks opened while others are open, and deltas that do not fit their block, across a whole turn. */
export function sequenceProblems(output: readonly OutLine[]): { line: OutLine; message: string }[] {
  const open = new Map<number, string>();
  const problems: { line: OutLine; message: string }[] = [];
  for (const line of output) {
    const o = line.object;
    if (o === undefined || typeof o.index !== "number" || !Number.isInteger(o.index) || o.index < 0) continue;
    const index = o.index;
    if (o.type === "content_block_start") {
      const others = [...open.keys()].filter((i) => i !== index);
      // The same index started twice is agent-cli/turns/text-blocks.
      if (others.length > 0 && !open.has(index)) problems.push({ line, message: `block ${index} started while block ${others.join(", ")} ${others.length > 1 ? "are" : "is"} still open` });
      open.set(index, isRecord(o.content_block) && typeof o.content_block.type === "string" ? o.content_block.type : "?");
    } else if (o.type === "content_block_stop") {
      open.delete(index);
    } else if (o.type === "content_block_delta" && isRecord(o.delta) && typeof o.delta.type === "string") {
      const block = open.get(index);
      const fits = DELTA_FITS[o.delta.type];
      if (block !== undefined && fits !== undefined && KNOWN_BLOCKS.has(block) && !fits.includes(block)) {
        problems.push({ line, message: `a ${o.delta.type} continues block ${index}, which is a ${block} block` });
      }
    }
  }
  return problems;
}

const blockSequence: Check<AgentRun> = {
  clause: `${CONSISTENCY}/block-sequence`,
  judge: (run) =>
    judgeEach(
      allSegments(run).filter(({ segment }) => segment.output.some((l) => typeof l.object?.type === "string" && l.object.type.startsWith("content_block_"))),
      ({ transcript, segment }) =>
        sequenceProblems(segment.output)
          .slice(0, MAX_PER_TURN)
          .map(({ line, message }) => finding(`${CONSISTENCY}/block-sequence`, { transcript, lines: [line] }, message, { expected: "one block at a time (each stopped before the next starts), deltas of the block's own kind" })),
      notApplicable(noBlocksReason(run)),
    ),
};

/** The host stopped, signalled or ended the process while the turn was open. */
function hostActedDuring(turn: ModelTurn): boolean {
  const view = processesOf(turn.transcript).find((v) => v.process === turn.segment.process);
  const from = turn.segment.input?.at ?? 0;
  const to = turn.segment.terminal?.at ?? Infinity;
  return (view?.events ?? []).some(({ event, at }) => at > from && at < to && (event.kind === "action" || (event.kind === "send" && /^\s*\{\s*"type"\s*:\s*"(shutdown|control_request)"/.test(event.line))));
}

const textOnly = (segment: Segment): boolean => blockTypes(segment).every((type) => type === "text");

/** The turn's verdict, or undefined when it is not one the clause judges. */
function judgeStreamedTurn(turn: ModelTurn): Finding[] | undefined {
  const result = turn.segment.terminal?.object;
  // A raw stream's message_stop ends the turn completed, like a success result (analysis.ts, endedWithoutError).
  const stopped = result?.type === "message_stop";
  if (!stopped && (result?.type !== "result" || typeof result.subtype !== "string" || typeof result.is_error !== "boolean")) return undefined;
  // A result whose subtype and is_error disagree is agent-cli/turns/result-shape's.
  if (!stopped && result.is_error !== (result.subtype !== "success")) return undefined;
  if (!textOnly(turn.segment) || turn.calls.length === 0 || turn.calls.some((c) => c.outcome !== "complete") || hostActedDuring(turn)) return undefined;
  const streamed = streamedText(turn.segment.output);
  const pieces = modelPieces(turn.transcript, turn.segment);
  if (!pieces.some((piece) => streamed.includes(piece))) return undefined;
  if (endedWithoutError(turn.segment.terminal)) return [];
  const line = turn.segment.terminal as OutLine;
  return [finding(`${CONSISTENCY}/streamed-turn-succeeds`, { transcript: turn.transcript, lines: [line] }, `the model answered ${turn.calls.length === 1 ? "the turn's request" : `all ${turn.calls.length} requests of the turn`} in full and its text was streamed, yet the turn ended with an error result`, { expected: "a success result", seen: `subtype ${show(result.subtype)}, result ${show(result.result)}` })];
}

const streamedTurnSucceeds: Check<AgentRun> = {
  clause: `${CONSISTENCY}/streamed-turn-succeeds`,
  judge: (run) => {
    const unjudged = noModelSide(run);
    if (unjudged !== undefined) return unjudged;
    return judgeSome(modelTurns(run), judgeStreamedTurn, notApplicable("no text-only turn whose model requests were all answered in full streamed the model's text and ended with a result or message_stop"));
  },
};

export const consistencyChecks: Check<AgentRun>[] = [usageCheck, toolUseIds, blockSequence, streamedTurnSucceeds];

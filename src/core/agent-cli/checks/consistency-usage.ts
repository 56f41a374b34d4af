/**
 * agent-cli/consistency/usage-matches-model: the usage of a success result against the counts
 * the kit's model reported for the turn. The rule, per count (input_tokens, output_tokens):
 * the sum of the requests the CLI used, or more, passes; less than one request alone, or
 * exactly a partial sum (rounds dropped), fails; anything else between is the CLI's own count.
 */
import type { Check } from "../../report/judge.js";
import type { Finding } from "../../report/types.js";
import { isRecord, type JsonRecord } from "../analysis.js";
import type { ModelCall, TokenUsage } from "../types.js";
import { shownText } from "./blocks.js";
import { callName, CONSISTENCY, modelTurns, noModelSide, shownToolUses, type ModelTurn } from "./consistency-turns.js";
import { finding, judgeSome, notApplicable, type AgentRun } from "./helpers.js";

const CLAUSE = `${CONSISTENCY}/usage-matches-model`;
const COUNTS = ["input_tokens", "output_tokens"] as const;
type Count = (typeof COUNTS)[number];

/** Partial sums the kit looks for, at most (bounds the work on turns with very many rounds). */
const MAX_SUMS = 20_000;

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * The turn's requests whose answer the CLI used: a text it showed (streamed, in a message or
 * in the result), a tool call it showed or answered in a later request of the turn. A request
 * it discarded (an internal one, a retry) is not a round of the conversation.
 */
export function usedCalls(turn: Pick<ModelTurn, "segment" | "calls">): ModelCall[] {
  const shown = shownText(turn.segment.output);
  const shownIds = new Set(shownToolUses(turn.segment.output).map((b) => b.id));
  const complete = turn.calls.filter((c) => c.outcome === "complete");
  return complete.filter((call, i) => {
    if (call.toolCall !== undefined) {
      const id = call.toolCall.id;
      return shownIds.has(id) || complete.slice(i + 1).some((later) => JSON.stringify(later.body ?? null).includes(JSON.stringify(id)));
    }
    return call.replyText !== "" && shown.includes(call.replyText);
  });
}

/** Indexes of a nonempty subset of `values` that sums to `target`, if the kit finds one. */
export function partialSum(values: readonly number[], target: number): number[] | undefined {
  let sums = new Map<number, number[]>();
  for (const [i, value] of values.entries()) {
    const next = new Map(sums);
    const add = (sum: number, picked: number[]): void => {
      if (sum <= target && !next.has(sum)) next.set(sum, picked);
    };
    add(value, [i]);
    for (const [sum, picked] of sums) add(sum + value, [...picked, i]);
    if (next.size > MAX_SUMS) return undefined;
    sums = next;
  }
  return sums.get(target);
}

/** What is wrong with one count of the result, or undefined when it holds. */
export function countProblem(key: Count, figure: number, calls: readonly ModelCall[]): string | undefined {
  const reported = calls.map((c) => (c.usage as TokenUsage)[key]);
  const sum = reported.reduce((a, b) => a + b, 0);
  if (figure >= sum) return undefined;
  const list = calls.map((c, i) => `${callName(c)} ${reported[i]}`).join(", ");
  const largest = Math.max(...reported);
  if (figure < largest) {
    const which = calls[reported.indexOf(largest)] as ModelCall;
    return `${key} ${figure} is less than the ${largest} the model reported for request ${callName(which)} alone (the turn's requests: ${list}; sum ${sum})`;
  }
  const picked = partialSum(reported, figure);
  if (picked === undefined) return undefined;
  const names = picked.map((i) => callName(calls[i] as ModelCall)).join(" + ");
  return `${key} ${figure} is what request${picked.length > 1 ? "s" : ""} ${names} reported, not the ${sum} of all ${calls.length} requests of the turn (${list}): the other rounds were not counted`;
}

function judgeTurn(turn: ModelTurn): Finding[] | undefined {
  const result = turn.segment.terminal?.object;
  if (result?.type !== "result" || result.subtype !== "success" || result.is_error !== false || !isRecord(result.usage)) return undefined;
  const usage: JsonRecord = result.usage;
  const counts = COUNTS.filter((key) => isCount(usage[key]));
  // A usage of zeros is a CLI that does not count (or a placeholder), not a figure of the model's.
  if (counts.length === 0 || counts.every((key) => usage[key] === 0)) return undefined;
  const used = usedCalls(turn);
  if (used.length === 0 || used.some((c) => c.usage === undefined)) return undefined;
  const line = turn.segment.terminal;
  return counts.flatMap((key) => {
    const problem = countProblem(key, usage[key] as number, used);
    if (problem === undefined) return [];
    const expected = `at least ${used.reduce((a, c) => a + (c.usage as TokenUsage)[key], 0)} (the model's ${key} for the turn, summed over its requests)`;
    return [finding(CLAUSE, { transcript: turn.transcript, ...(line ? { lines: [line] } : {}) }, problem, { expected, seen: `${key} ${String(usage[key])}` })];
  });
}

export const usageCheck: Check<AgentRun> = {
  clause: CLAUSE,
  judge: (run) => {
    const unjudged = noModelSide(run);
    if (unjudged !== undefined) return unjudged;
    return judgeSome(
      modelTurns(run),
      judgeTurn,
      notApplicable(
        "no success result carried nonzero usage counts for a turn whose model requests all reported theirs (usage is optional; an OpenAI stream reports usage only when the request sets stream_options.include_usage)",
      ),
    );
  },
};

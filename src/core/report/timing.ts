import type { ClauseResult } from "./types.js";

/**
 * The time of each judged clause: the summed duration of the parts of the run (scenarios, groups
 * of candidate calls) that judged it. A part judged a clause when judging that part alone judges
 * the clause more often than judging no part at all does (what the launch configuration alone
 * shows costs no candidate time), or when judging every other part but it judges the clause less
 * often than the whole run did (a clause judged on several parts together, e.g. a probe and its
 * control). Pure: the runner times the parts and judges them.
 */

/** One part of a run: its duration, and each clause's judged count with the part judged alone and with it left out. */
export interface TimedPart {
  ms: number;
  alone: ReadonlyMap<string, number>;
  without: ReadonlyMap<string, number>;
}

/** Each clause's judged count, by id. */
export function judgedCounts(results: readonly ClauseResult[]): Map<string, number> {
  return new Map(results.map((r) => [r.id, r.judged]));
}

/**
 * Sets durationMs on every passed or failed clause: the sum of the parts that judged it. A clause
 * judged on no part (the launch configuration) gets 0; one judged, yet by no part found this way,
 * the time of every part. Skipped and not-applicable clauses get none.
 */
export function withClauseTimes(results: readonly ClauseResult[], parts: readonly TimedPart[], none: ReadonlyMap<string, number>): ClauseResult[] {
  const all = parts.reduce((sum, part) => sum + part.ms, 0);
  return results.map((result) => {
    if (result.status !== "pass" && result.status !== "fail") return result;
    const base = none.get(result.id) ?? 0;
    const by = parts.filter((part) => (part.alone.get(result.id) ?? 0) > base || (part.without.get(result.id) ?? 0) < result.judged);
    const ms = by.length > 0 ? by.reduce((sum, part) => sum + part.ms, 0) : result.judged > base ? all : 0;
    return { ...result, durationMs: Math.round(ms) };
  });
}

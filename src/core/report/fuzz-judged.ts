/**
 * What fuzzing says of a fuzzed clause no case judged, from the reasons the cases' checks gave:
 * one function, so a campaign and the merge of its shards word it alike. The reasons are kept
 * in the report's fuzz section (judgedBy), in an order that does not depend on the order the
 * cases ran in, so shards summed give what the whole campaign gives.
 */
import type { Judgement, UnjudgedReason } from "./types.js";

/** Reasons named in a clause's reason; the rest are counted. */
export const SHOWN_REASONS = 4;

/** Most given first, then by text: the same order whatever order the cases came in. */
function byCount(a: UnjudgedReason, b: UnjudgedReason): number {
  return b.cases - a.cases || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : a.outcome < b.outcome ? -1 : a.outcome > b.outcome ? 1 : 0);
}

/** Two lists of reasons as one: equal reasons (and outcomes) summed, in the order above. */
export function sumReasons(a: readonly UnjudgedReason[], b: readonly UnjudgedReason[]): UnjudgedReason[] {
  const sums = new Map<string, UnjudgedReason>();
  for (const r of [...a, ...b]) {
    const key = `${r.outcome}\u0000${r.reason}`;
    const known = sums.get(key);
    sums.set(key, known === undefined ? { ...r } : { ...known, cases: known.cases + r.cases });
  }
  return [...sums.values()].sort(byCount);
}

/**
 * A fuzzed clause no case judged: skipped when any case skipped it (the kit could not judge what
 * may have been there), not applicable otherwise; the reason names what never occurred, in the
 * words of the cases' checks, for every case of the campaign.
 */
export function unjudgedJudgement(reasons: readonly UnjudgedReason[], unit: "request" | "session"): Extract<Judgement, { outcome: "skip" | "not-applicable" }> {
  const sorted = [...reasons].sort(byCount);
  const outcome = sorted.some((r) => r.outcome === "skip") ? "skip" : "not-applicable";
  const first = sorted[0];
  if (first === undefined) return { outcome: "skip", reason: `no fuzzed ${unit} judged it` };
  if (sorted.length === 1) return { outcome, reason: `in every fuzzed ${unit}: ${first.reason}` };
  const shown = sorted.slice(0, SHOWN_REASONS).map((r) => r.reason);
  const rest = sorted.length - shown.length;
  return { outcome, reason: `in every fuzzed ${unit}, one of: ${shown.join("; ")}${rest > 0 ? `; or ${rest} other reason${rest > 1 ? "s" : ""}` : ""}` };
}

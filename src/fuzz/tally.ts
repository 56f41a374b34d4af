/**
 * What the cases of a fuzz campaign made of each fuzzed clause: how many cases judged it and
 * how many judgements they made, and, for the cases that did not judge it, why not. A fuzzed
 * clause passes on fuzzing's account only when a case judged it; otherwise the reasons the
 * cases gave say what never occurred (core/report/fuzz-judged.ts words them).
 */
import { sumReasons, unjudgedJudgement } from "../core/report/fuzz-judged.js";
import type { ClauseResult, Finding, JudgedBy, Judgement, UnjudgedReason } from "../core/report/types.js";

/** What the campaign's cases made of one fuzzed clause. */
export interface ClauseCount {
  /** Cases that judged the clause (passed or failed it). */
  cases: number;
  /** The judgements those cases made (turns, lines, exchanges), summed: the clause's `judged`. */
  judged: number;
  /** Why the other cases did not judge it, most given first. */
  unjudged: UnjudgedReason[];
  /** Cases that failed it, and the first finding of the first of them (the campaign reports a failure for it, shrunk or not). */
  failed: number;
  finding?: Finding;
}

/** The plain data of a tally: every fuzzed clause, in the order given, and the cases counted. */
export interface TallyData {
  cases: number;
  clauses: Record<string, ClauseCount>;
}

/**
 * Distinct reasons kept per clause: a reason that quotes a case (stderr, paths) must not grow
 * the tally without bound; past it, cases are counted under "another reason".
 */
export const MAX_REASONS = 16;
const OTHER = "another reason";

interface Counting {
  cases: number;
  judged: number;
  unjudged: Map<string, UnjudgedReason>;
  failed: number;
  finding?: Finding;
}

export class ClauseTally {
  private cases = 0;
  private readonly counts = new Map<string, Counting>();

  constructor(clauses: readonly string[]) {
    for (const id of clauses) this.counts.set(id, { cases: 0, judged: 0, unjudged: new Map(), failed: 0 });
  }

  /** One case's results (results of clauses that are not fuzzed are ignored). */
  add(results: readonly ClauseResult[]): void {
    this.cases++;
    for (const r of results) {
      const count = this.counts.get(r.id);
      if (count === undefined) continue;
      if (r.status === "pass" || r.status === "fail") {
        count.cases++;
        count.judged += r.judged;
        if (r.status === "fail") {
          count.failed++;
          count.finding ??= r.findings[0];
        }
      } else {
        unjudged(count, { outcome: r.status, reason: r.reason ?? "nothing to judge", cases: 1 });
      }
    }
  }

  data(): TallyData {
    const clauses: Record<string, ClauseCount> = {};
    for (const [id, c] of this.counts) clauses[id] = { cases: c.cases, judged: c.judged, unjudged: sumReasons([...c.unjudged.values()], []), failed: c.failed, ...(c.finding !== undefined ? { finding: c.finding } : {}) };
    return { cases: this.cases, clauses };
  }
}

function unjudged(count: Counting, r: UnjudgedReason): void {
  let key = `${r.outcome}\u0000${r.reason}`;
  let reason = r.reason;
  if (!count.unjudged.has(key) && count.unjudged.size >= MAX_REASONS) {
    key = `${r.outcome}\u0000${OTHER}`;
    reason = OTHER;
  }
  const kept = count.unjudged.get(key);
  if (kept !== undefined) kept.cases += r.cases;
  else count.unjudged.set(key, { outcome: r.outcome, reason, cases: r.cases });
}

/** The fuzz section's per-clause counts: every fuzzed clause with the cases that judged it, and, when none did, why. */
export function judgedBy(tally: TallyData): JudgedBy[] {
  return Object.entries(tally.clauses).map(([name, c]) => ({ name, count: c.cases, ...(c.cases === 0 && c.unjudged.length > 0 ? { unjudged: c.unjudged } : {}) }));
}

/** The campaign's judgement of one clause, from its tally: judged when a case judged it (findings are added by the caller), else why not. */
export function tallyJudgement(count: ClauseCount | undefined, unit: "request" | "session"): Judgement {
  if (count !== undefined && count.judged > 0) return { outcome: "judged", judged: count.judged, findings: [] };
  return unjudgedJudgement(count?.unjudged ?? [], unit);
}

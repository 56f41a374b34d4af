import { KitError } from "../errors.js";
import type { Clause, ClauseResult, CountedLevel, Judgement, Level, Summary } from "./types.js";

/** A pure check: judges one clause on a transcript (or any subject). */
export interface Check<T> {
  clause: string;
  judge(subject: T): Judgement;
}

export interface JudgedClauses {
  results: ClauseResult[];
  deselected: number;
}

/** Folds several judgements of one clause: any finding fails it, else any judged exchange passes it. */
export function combineJudgements(clause: Clause, judgements: readonly Judgement[]): ClauseResult {
  const base = { id: clause.id, level: clause.level, title: clause.title };
  const findings = judgements.flatMap((j) => (j.outcome === "judged" ? j.findings : []));
  const judged = judgements.reduce((sum, j) => sum + (j.outcome === "judged" ? j.judged : 0), 0);
  if (findings.length > 0) return { ...base, status: "fail", judged, findings };
  if (judged > 0) return { ...base, status: "pass", judged, findings: [] };
  const skip = judgements.find((j) => j.outcome === "skip");
  if (skip !== undefined && skip.outcome === "skip") return { ...base, status: "skip", reason: skip.reason, judged: 0, findings: [] };
  const na = judgements.find((j) => j.outcome === "not-applicable");
  const reason = na !== undefined && na.outcome === "not-applicable" ? na.reason : "nothing to judge";
  return { ...base, status: "not-applicable", reason, judged: 0, findings: [] };
}

/** Runs every check of every selected clause. A clause without a check is a kit bug. */
export function judgeClauses<T>(
  clauses: readonly Clause[],
  checks: readonly Check<T>[],
  subject: T,
  selected: (id: string) => boolean,
): JudgedClauses {
  const byClause = new Map<string, Check<T>[]>();
  for (const check of checks) {
    const list = byClause.get(check.clause) ?? [];
    list.push(check);
    byClause.set(check.clause, list);
  }
  const known = new Set(clauses.map((c) => c.id));
  for (const id of byClause.keys()) {
    if (!known.has(id)) throw new KitError("kit_bug", `a check judges ${id}, which is not in the catalogue`);
  }
  let deselected = 0;
  const results: ClauseResult[] = [];
  for (const clause of clauses) {
    if (!selected(clause.id)) {
      deselected++;
      continue;
    }
    const own = byClause.get(clause.id);
    if (own === undefined) throw new KitError("kit_bug", `clause ${clause.id} has no check`);
    results.push(combineJudgements(clause, own.map((check) => check.judge(subject))));
  }
  return { results, deselected };
}

const LEVELS: Level[] = ["MUST", "SHOULD", "MAY"];
const COUNTED: Record<CountedLevel, readonly Level[]> = { must: ["MUST"], should: ["MUST", "SHOULD"], all: ["MUST", "SHOULD", "MAY"] };

export interface SummaryOptions {
  level?: CountedLevel;
  stale?: string[];
}

/**
 * Counts results and decides the verdict: conformant when something was judged, no failure
 * of a counted level stands (expected and flaky failures do not count), and no
 * expected-failure entry went stale.
 */
export function summarize(results: readonly ClauseResult[], deselected: number, options: SummaryOptions = {}): Summary {
  const level = options.level ?? "must";
  const stale = options.stale ?? [];
  const count = (status: ClauseResult["status"], of?: Level): number =>
    results.filter((r) => r.status === status && (of === undefined || r.level === of)).length;
  const byLevel = Object.fromEntries(
    LEVELS.map((l) => [l, { passed: count("pass", l), failed: count("fail", l), skipped: count("skip", l), notApplicable: count("not-applicable", l) }]),
  ) as Summary["byLevel"];
  const failures = results.filter((r) => r.status === "fail");
  const counted = failures.filter((r) => r.expectation === undefined && COUNTED[level].includes(r.level));
  const passed = count("pass");
  const judgedAny = passed + failures.length > 0;
  const conformant = judgedAny && counted.length === 0 && stale.length === 0;
  return {
    total: results.length,
    passed,
    failed: failures.length,
    skipped: count("skip"),
    notApplicable: count("not-applicable"),
    deselected,
    byLevel,
    warnings: failures.filter((r) => r.expectation === undefined && !COUNTED[level].includes(r.level)).length,
    expectedFailures: failures.filter((r) => r.expectation === "expected-failure").length,
    flaky: failures.filter((r) => r.expectation === "flaky").length,
    stale,
    level,
    conformant,
    verdict: !judgedAny ? "nothing-judged" : conformant ? "conformant" : "not-conformant",
  };
}

/** Failures that count against the verdict (not expected, not flaky, of a counted level). */
export function countedFailures(results: readonly ClauseResult[], level: CountedLevel): ClauseResult[] {
  return results.filter((r) => r.status === "fail" && r.expectation === undefined && COUNTED[level].includes(r.level));
}

/** 0 conformant, 1 not conformant (or nothing judged: a vacuous run is never a pass). */
export function exitCodeFor(summary: Summary): 0 | 1 {
  return summary.conformant ? 0 : 1;
}

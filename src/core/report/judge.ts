import { KitError } from "../errors.js";
import type { Buckets, Clause, ClauseResult, CountedLevel, Finding, IncompleteGroup, Judgement, KitBound, Level, Summary, Verdict } from "./types.js";

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
export function combineJudgements(clause: Pick<Clause, "id" | "level" | "title">, judgements: readonly Judgement[]): ClauseResult {
  // One pass, and each result written out whole: a fuzz campaign folds every clause of every
  // case, and spreading a shared base into each result cost about 2.5 µs a fold (80 times this).
  let findings: Finding[] | undefined;
  let judged = 0;
  let skip: string | undefined;
  let na: string | undefined;
  for (const j of judgements) {
    if (j.outcome === "judged") {
      judged += j.judged;
      if (j.findings.length > 0) {
        findings ??= [];
        for (const f of j.findings) findings.push(f);
      }
    } else if (j.outcome === "skip") skip ??= j.reason;
    else na ??= j.reason;
  }
  const { id, level, title } = clause;
  if (findings !== undefined) return { id, level, title, status: "fail", judged, findings };
  if (judged > 0) return { id, level, title, status: "pass", judged, findings: [] };
  if (skip !== undefined) return { id, level, title, status: "skip", reason: skip, judged: 0, findings: [] };
  return { id, level, title, status: "not-applicable", reason: na ?? "nothing to judge", judged: 0, findings: [] };
}

/** Checks by clause, worked out once per list of checks (a fuzz campaign judges thousands of cases with one). */
const indexes = new WeakMap<readonly Check<never>[], { clauses: readonly Clause[]; byClause: Map<string, Check<never>[]> }>();

function checksByClause<T>(clauses: readonly Clause[], checks: readonly Check<T>[]): Map<string, Check<T>[]> {
  const known = indexes.get(checks as readonly Check<never>[]);
  if (known !== undefined && known.clauses === clauses) return known.byClause as Map<string, Check<T>[]>;
  const byClause = new Map<string, Check<T>[]>();
  for (const check of checks) {
    const list = byClause.get(check.clause) ?? [];
    list.push(check);
    byClause.set(check.clause, list);
  }
  const ids = new Set(clauses.map((c) => c.id));
  for (const id of byClause.keys()) {
    if (!ids.has(id)) throw new KitError("kit_bug", `a check judges ${id}, which is not in the catalogue`);
  }
  indexes.set(checks as readonly Check<never>[], { clauses, byClause: byClause as Map<string, Check<never>[]> });
  return byClause;
}

/** Runs every check of every selected clause. A clause without a check is a kit bug. */
export function judgeClauses<T>(
  clauses: readonly Clause[],
  checks: readonly Check<T>[],
  subject: T,
  selected: (id: string) => boolean,
): JudgedClauses {
  const byClause = checksByClause(clauses, checks);
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

const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];
const COUNTED: Record<CountedLevel, readonly Level[]> = { must: ["MUST"], should: ["MUST", "SHOULD"], all: ["MUST", "SHOULD", "MAY"] };

/** Whether --level LEVEL counts clauses of this level (their failures and their skips). */
export function isCounted(level: Level, counted: CountedLevel): boolean {
  return COUNTED[counted].includes(level);
}

export interface SummaryOptions {
  level?: CountedLevel;
  stale?: string[];
}

/** The one bucket a clause result is counted in at --level `level`. */
export function bucketOf(result: ClauseResult, level: CountedLevel): keyof Buckets {
  switch (result.status) {
    case "pass":
      return "passed";
    case "skip":
      return "skipped";
    case "not-applicable":
      return "notApplicable";
    case "fail":
      if (result.expectation === "expected-failure") return "expectedFailures";
      if (result.expectation === "flaky") return "flaky";
      return isCounted(result.level, level) ? "failed" : "warnings";
  }
}

function emptyBuckets(): Buckets {
  return { passed: 0, failed: 0, warnings: 0, expectedFailures: 0, flaky: 0, skipped: 0, notApplicable: 0 };
}

/** Skipped clauses of a counted level, grouped by identical reason, groups in the order of their first clause. */
export function incompleteGroups(results: readonly ClauseResult[], level: CountedLevel): IncompleteGroup[] {
  const groups = new Map<string, string[]>();
  for (const r of results) {
    if (r.status !== "skip" || !isCounted(r.level, level)) continue;
    const reason = r.reason !== undefined && r.reason !== "" ? r.reason : "skipped (no reason given)";
    const ids = groups.get(reason) ?? [];
    ids.push(r.id);
    groups.set(reason, ids);
  }
  return [...groups].map(([reason, clauses]) => ({ reason, clauses }));
}

/**
 * The one rule every report obeys, whichever command produced it (run, fuzz, check, merge):
 * a clause passes only with something judged (judged >= 1). A pass with nothing judged can
 * only come from a bug in the kit (a fold or a command that called a clause passed without
 * judging it); it is an error with the kit_bug code, never a verdict, and every report is
 * counted through summarize(), so none can carry one.
 */
export function assertJudgedPasses(results: readonly ClauseResult[]): void {
  const hollow = results.filter((r) => r.status === "pass" && !(r.judged >= 1));
  if (hollow.length === 0) return;
  const ids = hollow.slice(0, 5).map((r) => r.id).join(", ");
  throw new KitError("kit_bug", `${hollow.length} clause result(s) pass with nothing judged (${ids}${hollow.length > 5 ? ", ..." : ""}): a pass needs judged >= 1`);
}

/**
 * Counts results (each in exactly one bucket) and decides the verdict, in this order:
 * not-conformant when a counted failure stands (expected and flaky failures do not count)
 * or an expected-failure entry went stale; incomplete when a clause of a counted level was
 * skipped; nothing-judged when no clause passed or failed; else conformant. A pass with
 * nothing judged throws (assertJudgedPasses).
 */
export function summarize(results: readonly ClauseResult[], deselected: number, options: SummaryOptions = {}): Summary {
  assertJudgedPasses(results);
  const level = options.level ?? "must";
  const stale = options.stale ?? [];
  const all = emptyBuckets();
  const byLevel = Object.fromEntries(LEVELS.map((l) => [l, emptyBuckets()])) as Record<Level, Buckets>;
  for (const r of results) {
    const bucket = bucketOf(r, level);
    all[bucket]++;
    byLevel[r.level][bucket]++;
  }
  const incomplete = incompleteGroups(results, level);
  const judgedAny = results.some((r) => r.status === "pass" || r.status === "fail");
  const verdict: Verdict =
    all.failed > 0 || stale.length > 0 ? "not-conformant" : incomplete.length > 0 ? "incomplete" : !judgedAny ? "nothing-judged" : "conformant";
  return {
    total: results.length,
    ...all,
    deselected,
    byLevel,
    incomplete,
    atKitBound: results.filter((r) => bucketOf(r, level) === "failed" && failsAtKitBound(r)).length,
    stale,
    level,
    conformant: verdict === "conformant",
    verdict,
  };
}

/** The clause failed, and every one of its findings rests only on a time bound the kit chose (Finding.kitBound). */
export function failsAtKitBound(result: ClauseResult): boolean {
  return result.status === "fail" && result.findings.length > 0 && result.findings.every((f) => f.kitBound !== undefined);
}

/** The bounds a set of results failed at, one per option with its value and unit, in first-seen order ("--stall-timeout 180000 ms"). */
export function kitBoundOptions(results: readonly ClauseResult[]): Omit<KitBound, "activity">[] {
  const seen = new Map<string, Omit<KitBound, "activity">>();
  for (const r of results) for (const f of r.findings) if (f.kitBound !== undefined && !seen.has(f.kitBound.option)) seen.set(f.kitBound.option, { option: f.kitBound.option, value: f.kitBound.value, unit: f.kitBound.unit });
  return [...seen.values()];
}

/** Failures that count against the verdict (not expected, not flaky, of a counted level). */
export function countedFailures(results: readonly ClauseResult[], level: CountedLevel): ClauseResult[] {
  return results.filter((r) => bucketOf(r, level) === "failed");
}

export type VerdictExitCode = 0 | 1 | 4;

/** Exit codes of a judged run; 2 (usage or configuration error) and 3 (the kit failed) come from KitError. */
export const EXIT_CODES: Readonly<Record<Verdict, VerdictExitCode>> = {
  conformant: 0,
  "not-conformant": 1,
  // A vacuous run is never a pass.
  "nothing-judged": 1,
  incomplete: 4,
};

/** 0 conformant, 1 not conformant or nothing judged, 4 incomplete (an unknown verdict is 1). */
export function exitCodeFor(summary: Pick<Summary, "verdict">): VerdictExitCode {
  return Object.hasOwn(EXIT_CODES, summary.verdict) ? EXIT_CODES[summary.verdict] : 1;
}

/** The worse of two verdict exit codes, for several runs in one command: 1 over 4 over 0. */
export function worseExitCode(a: VerdictExitCode, b: VerdictExitCode): VerdictExitCode {
  const rank = (code: VerdictExitCode): number => (code === 0 ? 0 : code === 4 ? 1 : 2);
  return rank(b) > rank(a) ? b : a;
}

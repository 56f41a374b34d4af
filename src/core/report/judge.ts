import { KitError } from "../errors.js";
import type { Clause, ClauseResult, Judgement, Level, Summary } from "./types.js";

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

export function summarize(results: readonly ClauseResult[], deselected: number): Summary {
  const count = (status: ClauseResult["status"], level?: Level): number =>
    results.filter((r) => r.status === status && (level === undefined || r.level === level)).length;
  const byLevel = Object.fromEntries(
    LEVELS.map((level) => [
      level,
      {
        passed: count("pass", level),
        failed: count("fail", level),
        skipped: count("skip", level),
        notApplicable: count("not-applicable", level),
      },
    ]),
  ) as Summary["byLevel"];
  const passed = count("pass");
  const failed = count("fail");
  const judgedAny = passed + failed > 0;
  const conformant = judgedAny && byLevel.MUST.failed === 0;
  return {
    total: results.length,
    passed,
    failed,
    skipped: count("skip"),
    notApplicable: count("not-applicable"),
    deselected,
    byLevel,
    conformant,
    verdict: !judgedAny ? "nothing-judged" : conformant ? "conformant" : "not-conformant",
  };
}

/** 0 conformant, 1 not conformant (or nothing judged: a vacuous run is never a pass). */
export function exitCodeFor(summary: Summary): 0 | 1 {
  return summary.conformant ? 0 : 1;
}

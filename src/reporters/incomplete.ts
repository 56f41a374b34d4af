import type { Level, RunReport } from "../core/report/types.js";
import { unitWord } from "./words.js";

/**
 * Words every reporter uses for an incomplete run, from `summary.incomplete`: how many
 * clauses of which levels could not be judged, and what to add (the check's reasons).
 */

const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];

/** How many clauses could not be judged (every clause of every reason group). */
export function incompleteTotal(report: RunReport): number {
  return report.summary.incomplete.reduce((n, group) => n + group.clauses.length, 0);
}

/** "4 MUST clauses", "1 MUST and 2 SHOULD clauses": the levels come from the report's clause results. */
export function incompleteClauses(report: RunReport): string {
  const levelOf = new Map(report.clauses.map((c) => [c.id, c.level]));
  const ids = report.summary.incomplete.flatMap((group) => group.clauses);
  const counts = LEVELS.map((level) => ({ level, n: ids.filter((id) => levelOf.get(id) === level).length })).filter((c) => c.n > 0);
  const total = ids.length;
  const noun = `${unitWord(report)}${total === 1 ? "" : "s"}`;
  // Ids the clause list does not know (a hand-edited report) are counted without a level.
  if (counts.reduce((n, c) => n + c.n, 0) !== total) return `${total} ${noun}`;
  const parts = counts.map((c) => `${c.n} ${c.level}`);
  const joined = parts.length <= 1 ? (parts[0] ?? "0") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${joined} ${noun}`;
}

/** "4 MUST clauses could not be judged". */
export function incompleteHeadline(report: RunReport): string {
  return `${incompleteClauses(report)} could not be judged`;
}

/** One reason group in a line: "REASON (3 clauses)" ("3 cases" in a policy-test report). */
export function reasonLine(group: { reason: string; clauses: readonly string[] }, unit: "case" | "clause" = "clause"): string {
  return `${group.reason} (${group.clauses.length} ${unit}${group.clauses.length === 1 ? "" : "s"})`;
}

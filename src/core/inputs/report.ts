import { summarize } from "../report/judge.js";
import type { RunReport, Summary } from "../report/types.js";
import { checkNumbers, parseInputJson, printable, validateInput } from "./json.js";
import { REPORT_LIMITS } from "./limits.js";
import { inputError } from "./read.js";

const COUNTS = ["total", "passed", "failed", "warnings", "expectedFailures", "flaky", "skipped", "notApplicable", "verdict"] as const satisfies readonly (keyof Summary)[];

/**
 * A saved report.json, checked before any reporter sees it: strict JSON within the report
 * limits, the report schema (the first offending path named), at most 1000 clause results
 * with ids of at most 128 characters and no id twice, numbers within ±2^53, no control
 * characters where the kit writes only its own words (titles, mode, version), and a summary
 * that agrees with the clause results (the exit code of `report FILE` comes from it).
 */
export function parseSavedReport(bytes: Uint8Array, file: string): RunReport {
  const value = parseInputJson(bytes, file, "report", { lenient: ["lone-surrogate"] });
  checkNumbers(value, file, "");
  validateInput(value, "report.schema.json", file);
  const report = value as unknown as RunReport;
  if (report.clauses.length > REPORT_LIMITS.maxClauses) throw inputError(file, `/clauses holds ${report.clauses.length} results, more than the limit of ${REPORT_LIMITS.maxClauses}`);
  // Fields the kit writes from its own catalogue and package, which reporters print as they are.
  const plain: [string, string | undefined][] = [["/tool/version", report.tool.version], ["/mode", report.mode], ...report.clauses.map((c, i): [string, string] => [`/clauses/${i}/title`, c.title])];
  for (const [path, text] of plain) {
    if (text !== undefined && printable(text) !== text) throw inputError(file, `${path} contains a control character or a direction override (a clause title, mode or version never does)`);
  }
  const seen = new Map<string, number>();
  report.clauses.forEach((clause, index) => {
    if (clause.id.length > REPORT_LIMITS.maxClauseIdChars) throw inputError(file, `/clauses/${index}/id is ${clause.id.length} characters long, more than the limit of ${REPORT_LIMITS.maxClauseIdChars}`);
    const first = seen.get(clause.id);
    if (first !== undefined) throw inputError(file, `/clauses/${index}/id repeats ${printable(clause.id)} (first at /clauses/${first})`);
    seen.set(clause.id, index);
  });
  const again = summarize(report.clauses, report.summary.deselected, { level: report.summary.level, stale: report.summary.stale });
  for (const key of COUNTS) {
    if (again[key] !== report.summary[key]) throw inputError(file, `/summary/${key} is ${JSON.stringify(report.summary[key])} but the clause results give ${JSON.stringify(again[key])}: the summary does not match the clauses`);
  }
  return report;
}

/**
 * How reporters show a failure that rests only on a time bound the kit chose (Finding.kitBound):
 * the option that moves it, its value, and what the candidate was doing when it ran out.
 */
import { bucketOf, failsAtKitBound, kitBoundOptions } from "../core/report/judge.js";
import type { ClauseResult, Finding, RunReport } from "../core/report/types.js";
import { printable } from "./style.js";

/** "--stall-timeout 180000 ms, the kit's choice (not the contract's): ...; when it ran out the candidate was still retrying: 9 model requests". */
export function kitBoundText(bound: NonNullable<Finding["kitBound"]>): string {
  const head = `${printable(bound.option)} ${bound.value} ${bound.unit}, the kit's choice (not the contract's)`;
  if (bound.unit === "bytes") return `${head}: raise it if a larger size is fine for you; the candidate was ${printable(bound.activity)}`;
  return `${head}: raise it to see whether the candidate gets there; when it ran out the candidate was ${printable(bound.activity)}`;
}

/** "at a kit-chosen bound: --turn-timeout 30000 ms" for a failing clause whose every finding rests on one, else "". */
export function atBoundNote(result: ClauseResult): string {
  if (!failsAtKitBound(result)) return "";
  return `at a kit-chosen bound: ${kitBoundOptions([result]).map((b) => `${printable(b.option)} ${b.value} ${b.unit}`).join(", ")}`;
}

/** " [at a kit-chosen bound: ...]" after a clause line, or "". */
export function atBoundLabel(result: ClauseResult): string {
  const note = atBoundNote(result);
  return note === "" ? "" : ` [${note}]`;
}

/** "1 failure at a kit-chosen bound: --stall-timeout" for the summary, or "" when no counted failure rests on one. */
export function atBoundSummary(report: RunReport): string {
  const n = report.summary.atKitBound ?? 0;
  if (n === 0) return "";
  const failed = report.clauses.filter((r) => bucketOf(r, report.summary.level) === "failed" && failsAtKitBound(r));
  return `${n} failure${n === 1 ? "" : "s"} at a kit-chosen bound: ${kitBoundOptions(failed).map((b) => printable(b.option)).join(", ")}`;
}

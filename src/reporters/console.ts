import type { ClauseResult, RunReport } from "../core/report/types.js";
import { failLabel, firstMessage, headLines, renderFinding, statusLabel } from "./console-lines.js";
import { consoleFuzzLines } from "./fuzz-coverage.js";
import { consoleDifferenceLines } from "./differences.js";
import { incompleteClauses, incompleteHeadline, reasonLine } from "./incomplete.js";
import { atBoundLabel, atBoundSummary } from "./kit-bound.js";
import { makeStyle, printable, type Style } from "./style.js";
import type { ReporterOptions } from "./types.js";
import { isPolicyTest, unitWord } from "./words.js";

/** Reasons an incomplete run lists by default; --verbose lists every one with its clauses. */
export const BRIEF_REASONS = 3;

/**
 * The console report. By default it prints what needs a person: failures and warnings with their
 * evidence, expected and flaky failures one line each, why the run is incomplete (its first
 * reasons and a count), notes and the summary. With --verbose (options.verbose) it prints one
 * line per clause, passes, skips and not-applicable ones included, and every reason.
 */
export function renderConsole(report: RunReport, options: ReporterOptions): string {
  const style = makeStyle(options.color);
  const verbose = options.verbose === true;
  const lines = [...headLines(report, style), ...incompleteBlock(report, style, verbose), ...(verbose ? everyClause(report, options, style) : needsAttention(report, options, style))];
  for (const note of report.notes) lines.push(style.dim(`note: ${printable(note)}`));
  lines.push(...consoleFuzzLines(report, style));
  lines.push(...consoleDifferenceLines(report, style));
  for (const stale of report.summary.stale) lines.push(style.red(`stale expectation: ${printable(stale)}`));
  if (!verbose) lines.push(...hiddenHint(report, style));
  lines.push(summaryLine(report, style));
  lines.push(...(verbose ? completionList(report, style) : completionCount(report, style)));
  return `${lines.join("\n")}\n`;
}

function clauseLine(result: ClauseResult, report: RunReport, style: Style, reason: string): string {
  // A policy-test entry's title is its case name, already the end of its id.
  const title = isPolicyTest(report) ? "" : `  ${style.dim(result.title)}`;
  return `${statusLabel(result, report, style)} ${result.level.padEnd(6)} ${result.id}${title}${reason}${style.yellow(atBoundLabel(result))}`;
}

function findingLines(result: ClauseResult, options: ReporterOptions, style: Style): string[] {
  const max = options.maxFindings ?? 3;
  const lines = result.findings.slice(0, max).flatMap((finding) => renderFinding(finding, style));
  if (result.findings.length > max) lines.push(style.dim(`      … and ${result.findings.length - max} more in the JSON report`));
  return lines;
}

/** --verbose: one line per clause, the evidence under each failure. */
function everyClause(report: RunReport, options: ReporterOptions, style: Style): string[] {
  const shownAbove = report.summary.verdict === "incomplete" ? report.summary.incomplete.map((g) => g.reason) : [];
  const firstWith = new Map<string, string>();
  const lines: string[] = [];
  for (const result of report.clauses) {
    const reason = result.reason ? style.dim(` — ${printable(shortReason(result.id, result.reason, shownAbove, firstWith, report.halted))}`) : "";
    lines.push(clauseLine(result, report, style, reason));
    if (result.status === "fail") lines.push(...findingLines(result, options, style));
  }
  return lines;
}

/** By default: failures and warnings with their evidence; expected and flaky failures one line each (id and first finding). */
function needsAttention(report: RunReport, options: ReporterOptions, style: Style): string[] {
  const lines: string[] = [];
  for (const result of report.clauses) {
    if (result.status !== "fail") continue;
    const label = failLabel(result, report);
    if (label === "XFAIL" || label === "FLAKY") {
      lines.push(`${statusLabel(result, report, style)} ${result.level.padEnd(6)} ${result.id}${style.dim(` — ${firstMessage(result)}`)}`);
      continue;
    }
    lines.push(clauseLine(result, report, style, ""), ...findingLines(result, options, style));
  }
  return lines;
}

/** "--verbose also lists the 40 passed and 12 skipped or not applicable clauses", when the brief report left some out. */
function hiddenHint(report: RunReport, style: Style): string[] {
  const passed = report.clauses.filter((r) => r.status === "pass").length;
  const unjudged = report.clauses.length - passed - report.clauses.filter((r) => r.status === "fail").length;
  const parts = [...(passed > 0 ? [`${passed} passed`] : []), ...(unjudged > 0 ? [`${unjudged} skipped or not applicable`] : [])];
  if (parts.length === 0) return [];
  return [style.dim(`(--verbose lists the ${parts.join(" and ")} ${unitWord(report)}${passed + unjudged === 1 ? "" : "s"} too)`)];
}

/** A reason is printed whole once: later clauses with the same reason point back to it. */
function shortReason(id: string, reason: string, shownAbove: readonly string[], firstWith: Map<string, string>, halted?: string): string {
  if (reason === halted && !shownAbove.includes(reason)) return "not judged: see STOPPED EARLY above";
  const above = shownAbove.indexOf(reason);
  if (above >= 0) return `not judged: reason ${above + 1} of the INCOMPLETE list above`;
  const first = firstWith.get(reason);
  if (first !== undefined) return `the same reason as ${first}`;
  firstWith.set(reason, id);
  return reason;
}

/**
 * Right under the header of an incomplete run: why, and which clauses each reason left
 * unjudged (by default the first reasons with a count each; --verbose: every reason and its
 * clause ids). A run that failed as well shows its skips at the end only.
 */
function incompleteBlock(report: RunReport, style: Style, verbose: boolean): string[] {
  const groups = report.summary.incomplete;
  if (report.summary.verdict !== "incomplete" || groups.length === 0) return [];
  const lines = [style.yellow(style.bold(`INCOMPLETE — ${incompleteHeadline(report)}; the run cannot be conformant until they are:`))];
  const shown = verbose ? groups : groups.slice(0, BRIEF_REASONS);
  for (const [i, group] of shown.entries()) {
    lines.push(`  ${style.yellow(`${i + 1}.`)} ${printable(verbose ? group.reason : reasonLine(group, unitWord(report)))}`);
    if (verbose) lines.push(style.dim(`      ${group.clauses.join(", ")}`));
  }
  const more = groups.length - shown.length;
  if (more > 0) lines.push(style.dim(`  … and ${more} more reason${more === 1 ? "" : "s"}: --verbose lists every reason with its ${unitWord(report)}s`));
  return lines;
}

/** --verbose ends with what to add to make the run complete (the reasons again, short), whatever the verdict. */
function completionList(report: RunReport, style: Style): string[] {
  const groups = report.summary.incomplete;
  if (groups.length === 0) return [];
  return [style.yellow("To make the run complete:"), ...groups.map((group) => `  - ${printable(reasonLine(group, unitWord(report)))}`)];
}

/** By default the to-do list is one line: how many reasons, and how to see them. */
function completionCount(report: RunReport, style: Style): string[] {
  const groups = report.summary.incomplete;
  if (groups.length === 0) return [];
  const n = groups.length;
  const where = report.summary.verdict === "incomplete" && n <= BRIEF_REASONS ? "listed above" : "--verbose lists them, as do the markdown and html reports";
  return [style.yellow(`To make the run complete: ${n} reason${n === 1 ? "" : "s"} left ${incompleteClauses(report)} unjudged (${where})`)];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * "46 clauses: 38 passed, 3 failed, 1 warning, 4 not applicable (2 deselected) — verdict".
 * Every clause of the run is in exactly one of the counts, so they add up to the total.
 */
export function summaryLine(report: RunReport, style: Style = makeStyle(false)): string {
  const s = report.summary;
  const unit = unitWord(report);
  const atBound = atBoundSummary(report);
  const parts = [`${s.passed} passed`, `${s.failed} failed${atBound !== "" ? ` (${atBound})` : ""}`];
  if (s.warnings > 0) parts.push(plural(s.warnings, "warning"));
  if (s.expectedFailures > 0) parts.push(`${s.expectedFailures} expected failure${s.expectedFailures === 1 ? "" : "s"}`);
  if (s.flaky > 0) parts.push(`${s.flaky} flaky`);
  if (s.skipped > 0) parts.push(`${s.skipped} skipped`);
  if (s.notApplicable > 0) parts.push(`${s.notApplicable} not applicable`);
  const deselected = s.deselected > 0 ? ` (${s.deselected} deselected)` : "";
  const reasons = [
    ...(s.failed > 0 ? [`${s.failed} ${s.level === "must" && unit === "clause" ? "MUST " : ""}${unit}${s.failed === 1 ? "" : "s"} failed`] : []),
    ...(s.stale.length > 0 ? [plural(s.stale.length, "stale expectation")] : []),
  ];
  let verdict: string;
  switch (s.verdict) {
    case "conformant":
      verdict = style.green("conformant");
      break;
    case "incomplete":
      verdict = style.yellow(`incomplete (${incompleteHeadline(report)})`);
      break;
    case "nothing-judged":
      verdict = style.red("nothing was judged: not a pass");
      break;
    default:
      verdict = style.red(`not conformant (${reasons.join(", ")})`);
  }
  return `${plural(s.total, unit)}: ${parts.join(", ")}${deselected} — ${verdict}`;
}

import { bucketOf, isCounted } from "../core/report/judge.js";
import type { Buckets, ClauseResult, Finding, RunReport } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { consoleFuzzLines } from "./fuzz-coverage.js";
import { incompleteHeadline, reasonLine } from "./incomplete.js";
import { atBoundLabel, atBoundSummary, kitBoundText } from "./kit-bound.js";
import { makeStyle, printable, type Style } from "./style.js";
import type { ReporterOptions } from "./types.js";

const LABEL: Record<ClauseResult["status"], string> = { pass: "PASS", fail: "FAIL", skip: "SKIP", "not-applicable": "N/A " };

/** A failure the verdict does not count: expected, flaky, or of a level --level leaves out. */
const FAIL_LABEL: Partial<Record<keyof Buckets, string>> = { failed: "FAIL", warnings: "WARN", expectedFailures: "XFAIL", flaky: "FLAKY" };

function failLabel(result: ClauseResult, report: RunReport): string {
  return FAIL_LABEL[bucketOf(result, report.summary.level)] ?? "FAIL";
}

/** Five columns wide, so every clause line lines up: PASS, FAIL, WARN, XFAIL, FLAKY, SKIP, N/A. */
function statusLabel(result: ClauseResult, report: RunReport, style: Style): string {
  if (result.status === "pass") return style.green(LABEL.pass.padEnd(5));
  if (result.status === "fail") {
    const label = failLabel(result, report);
    return label === "FAIL" ? style.red(label.padEnd(5)) : style.yellow(label.padEnd(5));
  }
  // A skip of a counted level makes the run incomplete: it stands out; other skips and N/A are dim.
  if (result.status === "skip" && isCounted(result.level, report.summary.level)) return style.yellow(LABEL.skip.padEnd(5));
  return style.dim(LABEL[result.status].trimEnd().padEnd(5));
}

function indent(text: string, prefix: string): string {
  return printable(text)
    .split("\n")
    .map((line, i) => (i === 0 ? line : `${prefix}${line}`))
    .join("\n");
}

function renderFinding(finding: Finding, style: Style): string[] {
  const where = [finding.scenario, finding.requestId ? `request ${finding.requestId}` : ""].filter(Boolean).join(" · ");
  const origin = finding.foundBy === "fuzz" ? style.yellow("found by fuzzing: ") : "";
  const lines = [`      ${style.red("✗")} ${origin}${printable(finding.message)}${where ? style.dim(`  [${printable(where)}]`) : ""}`];
  if (finding.expected !== undefined) lines.push(`        expected: ${printable(finding.expected.trimEnd())}`);
  if (finding.seen !== undefined) lines.push(`        seen:     ${indent(finding.seen.trimEnd(), "                  ")}`);
  for (const evidence of finding.evidence ?? []) {
    const at = evidence.line !== undefined ? ` (line ${evidence.line}${evidence.column !== undefined ? `, column ${evidence.column}` : ""})` : "";
    const label = `${evidence.stream ?? "evidence"}${at}:`.padEnd(9);
    lines.push(style.dim(`        ${label} ${indent(evidence.excerpt.slice(0, 300).trimEnd(), "                  ")}`));
  }
  if (finding.kitBound !== undefined) lines.push(style.yellow(`        bound:    ${kitBoundText(finding.kitBound)}`));
  if (finding.reproduce !== undefined) lines.push(`        reproduce: ${printable(finding.reproduce)}`);
  return lines;
}

/** "digest dialect: accepts ryu and zmij; invocations bound in ryu". */
function dialectLine(d: NonNullable<RunReport["digestDialect"]>): string {
  const accepted = d.accepted.length === 0 ? "accepts none of the dialects with exponent floats" : `accepts ${d.accepted.map(printable).join(" and ")}${d.accepted.length === 1 ? " only" : ""}`;
  return `digest dialect: ${accepted}; invocations bound in ${printable(d.bound)}`;
}

/** "shard 2/4 (units matrix, fresh; fuzz cases 50..99): 61 clauses left to the other shards; combine them with awp-conformance merge". */
function shardLine(shard: NonNullable<RunReport["shard"]>): string {
  const parts = [
    ...(shard.units !== undefined ? [`${shard.units.length > 0 ? shard.units.map(printable).join(", ") : "no part of the suite"}`] : []),
    ...(shard.cases !== undefined ? [shard.cases.to > shard.cases.from ? `fuzz cases ${shard.cases.from}..${shard.cases.to - 1}` : "no fuzz case"] : []),
  ];
  return `shard ${shard.index}/${shard.count}${parts.length > 0 ? ` (${parts.join("; ")})` : ""}: ${shard.elsewhere} clause${shard.elsewhere === 1 ? "" : "s"} left to the other shards; combine the shards' reports with awp-conformance merge`;
}

/** One line per clause, the evidence under each failure, and a closing count line. */
export function renderConsole(report: RunReport, options: ReporterOptions): string {
  const style = makeStyle(options.color);
  const max = options.maxFindings ?? 3;
  const bundled = bundledLabel(report);
  const lines = [style.bold(`awp-conformance ${report.tool.version} · ${bundled !== undefined ? `${bundled} · ` : ""}${report.protocol}${report.mode ? ` (${report.mode})` : ""} · ${printable(report.candidate.argv.join(" "))}`)];
  if (report.digestDialect !== undefined) lines.push(style.dim(dialectLine(report.digestDialect)));
  if (report.shard !== undefined) lines.push(style.dim(shardLine(report.shard)));
  if (typeof report.halted === "string") lines.push(style.yellow(`${style.bold("STOPPED EARLY —")} ${printable(report.halted)}`));
  lines.push(...incompleteBlock(report, style));
  const shownAbove = report.summary.verdict === "incomplete" ? report.summary.incomplete.map((g) => g.reason) : [];
  const firstWith = new Map<string, string>();
  for (const result of report.clauses) {
    const reason = result.reason ? style.dim(` — ${printable(shortReason(result.id, result.reason, shownAbove, firstWith, report.halted))}`) : "";
    // A policy-test entry's title is its case name, already the end of its id.
    const title = report.protocol === "policy-test" ? "" : `  ${style.dim(result.title)}`;
    lines.push(`${statusLabel(result, report, style)} ${result.level.padEnd(6)} ${result.id}${title}${reason}${style.yellow(atBoundLabel(result))}`);
    if (result.status === "fail") {
      for (const finding of result.findings.slice(0, max)) lines.push(...renderFinding(finding, style));
      if (result.findings.length > max) lines.push(style.dim(`      … and ${result.findings.length - max} more in the JSON report`));
    }
  }
  for (const note of report.notes) lines.push(style.dim(`note: ${printable(note)}`));
  lines.push(...consoleFuzzLines(report, style));
  for (const stale of report.summary.stale) lines.push(style.red(`stale expectation: ${printable(stale)}`));
  lines.push(summaryLine(report, style));
  lines.push(...completionHint(report, style));
  return `${lines.join("\n")}\n`;
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
 * unjudged. (A run that failed as well shows its skips at the end only.)
 */
function incompleteBlock(report: RunReport, style: Style): string[] {
  const groups = report.summary.incomplete;
  if (report.summary.verdict !== "incomplete" || groups.length === 0) return [];
  const lines = [style.yellow(style.bold(`INCOMPLETE — ${incompleteHeadline(report)}; the run cannot be conformant until they are:`))];
  for (const [i, group] of groups.entries()) {
    lines.push(`  ${style.yellow(`${i + 1}.`)} ${printable(group.reason)}`);
    lines.push(style.dim(`      ${group.clauses.join(", ")}`));
  }
  return lines;
}

/** The console ends with what to add to make the run complete (the reasons again, short), whatever the verdict. */
function completionHint(report: RunReport, style: Style): string[] {
  const groups = report.summary.incomplete;
  if (groups.length === 0) return [];
  return [style.yellow("To make the run complete:"), ...groups.map((group) => `  - ${printable(reasonLine(group))}`)];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * "46 clauses: 38 passed, 3 failed, 1 warning, 4 not applicable (2 deselected) — verdict".
 * Every clause of the run is in exactly one of the counts, so they add up to the total.
 */
export function summaryLine(report: RunReport, style: Style = makeStyle(false)): string {
  const s = report.summary;
  const unit = report.protocol === "policy-test" ? "case" : "clause";
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

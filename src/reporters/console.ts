import { countedFailures } from "../core/report/judge.js";
import type { ClauseResult, Finding, RunReport } from "../core/report/types.js";
import { makeStyle, printable, type Style } from "./style.js";
import type { ReporterOptions } from "./types.js";

const LABEL: Record<ClauseResult["status"], string> = { pass: "PASS", fail: "FAIL", skip: "SKIP", "not-applicable": "N/A " };

/** A failure the verdict does not count: expected, flaky, or of a level --level leaves out. */
function failLabel(result: ClauseResult, report: RunReport): string {
  if (result.expectation === "expected-failure") return "XFAIL";
  if (result.expectation === "flaky") return "FLAKY";
  return countedFailures([result], report.summary.level).length === 0 ? "WARN" : "FAIL";
}

/** Five columns wide, so every clause line lines up: PASS, FAIL, WARN, XFAIL, FLAKY, SKIP, N/A. */
function statusLabel(result: ClauseResult, report: RunReport, style: Style): string {
  if (result.status === "pass") return style.green(LABEL.pass.padEnd(5));
  if (result.status === "fail") {
    const label = failLabel(result, report);
    return label === "FAIL" ? style.red(label.padEnd(5)) : style.yellow(label.padEnd(5));
  }
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
    const at = evidence.line !== undefined ? ` (line ${evidence.line}, column ${evidence.column})` : "";
    const label = `${evidence.stream ?? "evidence"}${at}:`.padEnd(9);
    lines.push(style.dim(`        ${label} ${indent(evidence.excerpt.slice(0, 300).trimEnd(), "                  ")}`));
  }
  if (finding.reproduce !== undefined) lines.push(`        reproduce: ${printable(finding.reproduce)}`);
  return lines;
}

/** "digest dialect: accepts ryu and zmij; invocations bound in ryu". */
function dialectLine(d: NonNullable<RunReport["digestDialect"]>): string {
  const accepted = d.accepted.length === 0 ? "accepts none of the dialects with exponent floats" : `accepts ${d.accepted.map(printable).join(" and ")}${d.accepted.length === 1 ? " only" : ""}`;
  return `digest dialect: ${accepted}; invocations bound in ${printable(d.bound)}`;
}

/** One line per clause, the evidence under each failure, and a closing count line. */
export function renderConsole(report: RunReport, options: ReporterOptions): string {
  const style = makeStyle(options.color);
  const max = options.maxFindings ?? 3;
  const lines = [style.bold(`awp-conformance ${report.tool.version} · ${report.protocol}${report.mode ? ` (${report.mode})` : ""} · ${printable(report.candidate.argv.join(" "))}`)];
  if (report.digestDialect !== undefined) lines.push(style.dim(dialectLine(report.digestDialect)));
  for (const result of report.clauses) {
    const reason = result.reason ? style.dim(` — ${printable(result.reason)}`) : "";
    lines.push(`${statusLabel(result, report, style)} ${result.level.padEnd(6)} ${result.id}  ${style.dim(result.title)}${reason}`);
    if (result.status === "fail") {
      for (const finding of result.findings.slice(0, max)) lines.push(...renderFinding(finding, style));
      if (result.findings.length > max) lines.push(style.dim(`      … and ${result.findings.length - max} more in the JSON report`));
    }
  }
  for (const note of report.notes) lines.push(style.dim(`note: ${printable(note)}`));
  for (const stale of report.summary.stale) lines.push(style.red(`stale expectation: ${printable(stale)}`));
  lines.push(summaryLine(report, style));
  return `${lines.join("\n")}\n`;
}

export function summaryLine(report: RunReport, style: Style = makeStyle(false)): string {
  const s = report.summary;
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.skipped > 0) parts.push(`${s.skipped} skipped`);
  if (s.notApplicable > 0) parts.push(`${s.notApplicable} not applicable`);
  if (s.deselected > 0) parts.push(`${s.deselected} deselected`);
  if (s.warnings > 0) parts.push(`${s.warnings} warning${s.warnings > 1 ? "s" : ""}`);
  if (s.expectedFailures > 0) parts.push(`${s.expectedFailures} expected`);
  if (s.flaky > 0) parts.push(`${s.flaky} flaky`);
  const counted = countedFailures(report.clauses, s.level).length;
  const reasons = [
    ...(counted > 0 ? [`${counted} ${s.level === "must" ? "MUST " : ""}clause${counted === 1 ? "" : "s"} failed`] : []),
    ...(s.stale.length > 0 ? [`${s.stale.length} stale expectation${s.stale.length === 1 ? "" : "s"}`] : []),
  ];
  const verdict =
    s.verdict === "conformant"
      ? style.green(`conformant${s.byLevel.MUST.skipped > 0 ? ` (${s.byLevel.MUST.skipped} MUST clause${s.byLevel.MUST.skipped > 1 ? "s" : ""} skipped)` : ""}`)
      : s.verdict === "nothing-judged"
        ? style.red("nothing was judged: not a pass")
        : style.red(`not conformant (${reasons.join(", ")})`);
  return `${parts.join(", ")} — ${verdict}`;
}

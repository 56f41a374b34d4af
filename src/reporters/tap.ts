import { bucketOf } from "../core/report/judge.js";
import type { ClauseResult, Evidence, Finding, RunReport } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { incompleteHeadline } from "./incomplete.js";
import { clauseLink } from "./links.js";
import type { ReporterOptions } from "./types.js";
import { visible } from "./xml.js";
import { unitWord } from "./words.js";

/** A YAML diagnostic value; keys with undefined values (and empty lists) are left out. */
type Scalar = string | number | boolean;
interface YamlMap {
  [key: string]: Scalar | Scalar[] | YamlMap | YamlMap[] | undefined;
}

/**
 * A YAML-safe string: a JSON string (YAML reads JSON strings), after control characters
 * (and line and paragraph separators) became visible `\uXXXX`, so no value can end a
 * line, open a comment or close the block.
 */
function quote(text: string): string {
  return JSON.stringify(visible(text));
}

function scalar(value: string | number | boolean): string {
  if (typeof value === "string") return quote(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : quote(String(value));
  return String(value);
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function yamlLines(map: YamlMap, indent: string): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(map)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (isScalar(value)) {
      lines.push(`${indent}${key}: ${scalar(value)}`);
    } else if (Array.isArray(value)) {
      lines.push(`${indent}${key}:`);
      for (const item of value) {
        if (isScalar(item)) lines.push(`${indent}  - ${scalar(item)}`);
        else lines.push(...yamlLines(item, `${indent}    `).map((line, i) => (i === 0 ? `${indent}  - ${line.trimStart()}` : line)));
      }
    } else {
      const inner = yamlLines(value, `${indent}  `);
      if (inner.length > 0) lines.push(`${indent}${key}:`, ...inner);
    }
  }
  return lines;
}

/** A TAP 14 diagnostic block under a test point. */
function diagnostic(map: YamlMap): string[] {
  return ["  ---", ...yamlLines(map, "  "), "  ..."];
}

/** A description or directive reason: one line, with `\` and `#` escaped as TAP 14 requires. */
function tapText(text: string): string {
  return visible(text)
    .replace(/[\r\n\t]+/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/#/g, "\\#")
    .trim();
}

/** The evidence a finding is about: the first with a position, else the first the candidate wrote. */
function pointOf(finding: Finding): Evidence | undefined {
  const evidence = finding.evidence ?? [];
  return evidence.find((e) => e.line !== undefined) ?? evidence.find((e) => e.stream !== "stdin") ?? evidence[0];
}

function findingMap(finding: Finding): YamlMap {
  const point = pointOf(finding);
  return {
    message: finding.message,
    found: finding.seen,
    wanted: finding.expected,
    at: {
      scenario: finding.scenario,
      requestId: finding.requestId,
      stream: point?.stream,
      seq: point?.seq,
      line: point?.line,
      column: point?.column,
    },
    reproduce: finding.reproduce,
    foundBy: finding.foundBy,
  };
}

function evidenceLine(e: Evidence): string {
  const at = e.line !== undefined ? ` (line ${e.line}${e.column !== undefined ? `, column ${e.column}` : ""})` : "";
  return `${e.stream ?? "evidence"}${e.seq !== undefined ? ` #${e.seq}` : ""}${at}: ${e.excerpt}`;
}

/** The first finding in full (evidence and wire log too), then the others up to maxFindings. */
function failureDiagnostic(result: ClauseResult, options: ReporterOptions, expectation?: string): YamlMap {
  const [first, ...rest] = result.findings;
  const max = Math.max(0, (options.maxFindings ?? result.findings.length) - 1);
  const base: YamlMap = first !== undefined ? findingMap(first) : { message: "failed" };
  return {
    message: base.message,
    severity: result.level.toLowerCase(),
    ...base,
    expectation,
    clause: result.id,
    link: clauseLink(result.id, options.docsUrl),
    findings: result.findings.length,
    evidence: (first?.evidence ?? []).map(evidenceLine),
    wire: (first?.wire ?? []).map((w) => `${w.highlight === true ? "> " : ""}[${w.t} ms] ${w.stream}: ${w.text}${w.truncated === true ? " …(truncated)" : ""}`),
    others: rest.slice(0, max).map(findingMap),
    notShown: rest.length > max ? rest.length - max : undefined,
  };
}

function testPoint(n: number, result: ClauseResult, report: RunReport, options: ReporterOptions): string[] {
  const description = `${n} - ${tapText(`${result.id} — ${result.title}`)}`;
  switch (result.status) {
    case "pass":
      return [`ok ${description}`];
    case "skip":
      return [`ok ${description} # SKIP ${tapText(result.reason ?? "skipped")}`];
    case "not-applicable":
      return [`ok ${description} # SKIP ${tapText(`not applicable: ${result.reason ?? "nothing to judge"}`)}`];
    case "fail":
      break;
  }
  if (result.expectation !== undefined) {
    const todo = result.expectation === "flaky" ? "flaky" : "expected failure";
    return [`not ok ${description} # TODO ${todo}`, ...diagnostic(failureDiagnostic(result, options, result.expectation))];
  }
  if (bucketOf(result, report.summary.level) === "warnings") {
    const warning = `warning: ${result.level} failure not counted at --level ${report.summary.level}`;
    return [`not ok ${description} # TODO ${tapText(warning)}`, ...diagnostic(failureDiagnostic(result, options, "warning"))];
  }
  return [`not ok ${description}`, ...diagnostic(failureDiagnostic(result, options))];
}

/**
 * Points that fail the TAP run where the kit's run fails without a failing clause: an
 * incomplete run, stale expected-failure entries, and a run that judged nothing (never a pass).
 */
function runPoints(report: RunReport): { description: string; diag: YamlMap }[] {
  const s = report.summary;
  const points: { description: string; diag: YamlMap }[] = [];
  if (s.verdict === "incomplete") {
    const message = `${incompleteHeadline(report)}: the run is not a pass until they are; add what each reason asks for`;
    const incomplete = s.incomplete.map((g) => ({ reason: g.reason, clauses: g.clauses }));
    points.push({ description: "run incomplete", diag: { message, severity: "must", incomplete } });
  }
  if (s.stale.length > 0) {
    const message = "expected-failure entries no longer hold: remove them (or fix the list)";
    points.push({ description: "expected-failure entries are stale", diag: { message, severity: "must", stale: s.stale } });
  }
  if (s.verdict === "nothing-judged") {
    const message = `no ${unitWord(report)} was judged (all skipped, not applicable or deselected): a vacuous run is not a pass`;
    points.push({ description: "nothing was judged", diag: { message, severity: "must" } });
  }
  return points;
}

function verdictLine(report: RunReport): string {
  const s = report.summary;
  const parts = [`${s.passed} passed`, `${s.failed} failed`];
  if (s.warnings > 0) parts.push(`${s.warnings} warning${s.warnings === 1 ? "" : "s"}`);
  if (s.expectedFailures > 0) parts.push(`${s.expectedFailures} expected failure${s.expectedFailures === 1 ? "" : "s"}`);
  if (s.flaky > 0) parts.push(`${s.flaky} flaky`);
  parts.push(`${s.skipped} skipped`, `${s.notApplicable} not applicable`);
  if (s.deselected > 0) parts.push(`${s.deselected} deselected`);
  if (s.stale.length > 0) parts.push(`${s.stale.length} stale expected-failure entr${s.stale.length === 1 ? "y" : "ies"}`);
  return `# verdict: ${s.verdict} (counted level: ${s.level}) — ${s.total} ${unitWord(report)}${s.total === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

/** Comment lines under the plan of an incomplete run: the verdict and each reason, before any point. */
function incompleteComments(report: RunReport): string[] {
  if (report.summary.verdict !== "incomplete") return [];
  const reasons = report.summary.incomplete.map((g) => `#   - ${tapText(`${g.reason}: ${g.clauses.join(", ")}`)}`);
  return [`# INCOMPLETE — ${tapText(incompleteHeadline(report))}:`, ...reasons];
}

/**
 * TAP version 14: one test point per clause, SKIP for skipped and not-applicable clauses,
 * TODO for expected, flaky and uncounted-level failures, YAML diagnostics under failures,
 * and failing run points for an incomplete run, stale entries or a run that judged nothing.
 */
export function renderTap(report: RunReport, options: ReporterOptions): string {
  const extra = runPoints(report);
  const mode = report.mode !== undefined ? ` (${report.mode})` : "";
  const bundled = bundledLabel(report);
  const lines = [
    "TAP version 14",
    `# ${tapText(`${report.tool.name} ${report.tool.version} · ${bundled !== undefined ? `${bundled} · ` : ""}${report.protocol}${mode} · ${report.candidate.argv.join(" ")}`)}`,
    `1..${report.clauses.length + extra.length}`,
    ...incompleteComments(report),
  ];
  report.clauses.forEach((result, i) => lines.push(...testPoint(i + 1, result, report, options)));
  extra.forEach((point, i) => lines.push(`not ok ${report.clauses.length + i + 1} - ${point.description}`, ...diagnostic(point.diag)));
  lines.push(verdictLine(report));
  return `${lines.join("\n")}\n`;
}

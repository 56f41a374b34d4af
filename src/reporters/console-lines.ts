import { bucketOf, isCounted } from "../core/report/judge.js";
import type { Buckets, ClauseResult, Finding, RunReport } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { kitBoundText } from "./kit-bound.js";
import { printable, type Style } from "./style.js";

/** The pieces of a console report that both its brief (default) and its --verbose form print. */

const LABEL: Record<ClauseResult["status"], string> = { pass: "PASS", fail: "FAIL", skip: "SKIP", "not-applicable": "N/A " };

/** A failure the verdict does not count: expected, flaky, or of a level --level leaves out. */
const FAIL_LABEL: Partial<Record<keyof Buckets, string>> = { failed: "FAIL", warnings: "WARN", expectedFailures: "XFAIL", flaky: "FLAKY" };

export function failLabel(result: ClauseResult, report: RunReport): string {
  return FAIL_LABEL[bucketOf(result, report.summary.level)] ?? "FAIL";
}

/** Five columns wide, so every clause line lines up: PASS, FAIL, WARN, XFAIL, FLAKY, SKIP, N/A. */
export function statusLabel(result: ClauseResult, report: RunReport, style: Style): string {
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

export function renderFinding(finding: Finding, style: Style): string[] {
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

/** The first finding's message on one line (an expected failure's whole story in a brief report). */
export function firstMessage(result: ClauseResult): string {
  const first = result.findings[0]?.message ?? "failed";
  const line = printable(first.split(/\r?\n/, 1)[0] ?? "");
  const more = result.findings.length > 1 ? ` (and ${result.findings.length - 1} more)` : "";
  return `${line.length > 200 ? `${line.slice(0, 199)}…` : line}${more}`;
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

/** The header line and what the run says of itself before any clause: the digest dialect, the shard, a stop. */
export function headLines(report: RunReport, style: Style): string[] {
  const bundled = bundledLabel(report);
  const lines = [style.bold(`awp-conformance ${report.tool.version} · ${bundled !== undefined ? `${bundled} · ` : ""}${report.protocol}${report.mode ? ` (${report.mode})` : ""} · ${printable(report.candidate.argv.join(" "))}`)];
  if (report.digestDialect !== undefined) lines.push(style.dim(dialectLine(report.digestDialect)));
  if (report.shard !== undefined) lines.push(style.dim(shardLine(report.shard)));
  if (typeof report.halted === "string") lines.push(style.yellow(`${style.bold("STOPPED EARLY —")} ${printable(report.halted)}`));
  return lines;
}

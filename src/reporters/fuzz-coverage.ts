/**
 * The fuzz section of a report, rendered: how many cases of each kind ran and how many fell
 * in each size bucket, empty buckets shown, so a thin campaign reads as thin.
 */
import type { CoverageCount, FuzzSummary, RunReport } from "../core/report/types.js";
import { escapeMarkdown } from "./markdown.js";
import { printable, type Style } from "./style.js";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "300 requests, seed 42 (512 calls, 1 failure with a replay file)". */
export function fuzzHeadline(fuzz: FuzzSummary): string {
  const calls = fuzz.unit === "request" ? plural(fuzz.calls, "candidate call") : plural(fuzz.calls, "session");
  return `${plural(fuzz.cases, fuzz.unit)}, seed ${fuzz.seed} (${calls} with shrinking, ${plural(fuzz.failures, "failure")} with a replay file)`;
}

function counts(items: readonly CoverageCount[], style: Style): string {
  return items.map((c) => (c.count === 0 ? style.dim(`${printable(c.name)}: 0`) : `${printable(c.name)}: ${c.count}`)).join(style.dim(" · "));
}

/** Console lines: a headline, the kinds, then one line per size dimension. */
export function consoleFuzzLines(report: RunReport, style: Style): string[] {
  const fuzz = report.fuzz;
  if (fuzz === undefined) return [];
  const lines = [style.bold(`fuzz coverage: ${fuzzHeadline(fuzz)}`), `  kinds: ${counts(fuzz.kinds, style)}`];
  for (const size of fuzz.sizes) lines.push(`  ${printable(size.name)}, ${printable(size.of)}: ${counts(size.buckets, style)}`);
  return lines;
}

/** A Markdown section: the headline, the kinds, and one table row per size dimension. */
export function markdownFuzzSection(report: RunReport): string[] {
  const fuzz = report.fuzz;
  if (fuzz === undefined) return [];
  const list = (items: readonly CoverageCount[]): string => items.map((c) => `${escapeMarkdown(c.name, 60)}: ${c.count}`).join(" · ");
  return [
    "### Fuzz coverage",
    "",
    `${escapeMarkdown(fuzzHeadline(fuzz))}. Kinds: ${list(fuzz.kinds)}.`,
    "",
    "| Size | Of | Cases per bucket |",
    "| --- | --- | --- |",
    ...fuzz.sizes.map((s) => `| ${escapeMarkdown(s.name, 80)} | ${escapeMarkdown(s.of, 20)} | ${list(s.buckets)} |`),
  ];
}

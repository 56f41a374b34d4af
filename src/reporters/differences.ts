/**
 * The differential section of a report (fuzz --against), rendered for each format: one entry
 * per kind of difference with the request, both answers, which side the contract supports and
 * the replay command. Differences are findings of their own kind, never clause results.
 */
import type { FuzzDifference, RunReport } from "../core/report/types.js";
import { escapeText } from "./html-escape.js";
import { escapeMarkdown, escapeMarkdownBlock } from "./markdown.js";
import { printable, type Style } from "./style.js";

const SUPPORTS: Record<FuzzDifference["supports"], string> = {
  candidate: "the contract supports the candidate",
  against: "the contract supports the other provider",
  neither: "the contract supports neither",
  both: "both allowed by the contract",
};

const againstText = (report: RunReport): string => report.differential?.against.join(" ") ?? "";

/** "differ in effects on check tool.before [block]: ..." */
/** "; 12 cases the other did not declare, sent to the candidate only", or nothing. */
function notComparedText(n: number | undefined): string {
  return n === undefined || n === 0 ? "" : `; ${n} case${n === 1 ? "" : "s"} the other provider did not declare, sent to the candidate only`;
}

export function differenceHeadline(d: FuzzDifference): string {
  return `differ in ${d.aspects.join(", ")} on ${d.request.label}${d.shrunk ? " (shrunk)" : ""}`;
}

/** What each side answered, and who the contract supports, as lines of text. */
export function differenceBody(d: FuzzDifference): string[] {
  const clauses = (ids: string[]): string => (ids.length > 0 ? ` — fails ${ids.join(", ")}` : "");
  return [
    `candidate: ${d.candidate.answer}${clauses(d.candidate.clauses)}`,
    `against:   ${d.against.answer}${clauses(d.against.clauses)}`,
    `${SUPPORTS[d.supports]}: ${d.why}`,
    `seed ${d.seed}, path ${d.path}`,
    ...(d.reproduce !== undefined ? [`replay: ${d.reproduce}`] : []),
  ];
}

export function consoleDifferenceLines(report: RunReport, style: Style): string[] {
  const d = report.differential;
  if (d === undefined) return [];
  const head = style.bold(`differences against ${printable(againstText(report))}: ${d.differences.length} in ${d.cases} cases (${d.calls} calls to both sides${notComparedText(d.notCompared)})`);
  return [head, ...d.differences.flatMap((x) => [`  ${style.red("DIFFERS")} ${printable(differenceHeadline(x))}`, ...differenceBody(x).map((line) => `    ${printable(line)}`)])];
}

export function markdownDifferenceSection(report: RunReport): string[] {
  const d = report.differential;
  if (d === undefined) return [];
  const lines = ["### Differences between the two providers", "", `Against ${escapeMarkdown(againstText(report), 200)}: ${d.differences.length} kind(s) of difference in ${d.cases} cases answered by both${notComparedText(d.notCompared)}.`];
  if (d.differences.length === 0) return lines;
  lines.push("", "| Differs | Request | Candidate | Other | Contract | Replay |", "| --- | --- | --- | --- | --- | --- |");
  for (const x of d.differences) {
    const cells = [x.aspects.join(", "), x.request.label, x.candidate.answer, x.against.answer, `${SUPPORTS[x.supports]}: ${x.why}`, x.file ?? ""];
    lines.push(`| ${cells.map((c) => escapeMarkdown(c, 200)).join(" | ")} |`);
  }
  return [...lines, "", ...d.differences.flatMap((x) => [`${escapeMarkdown(x.id, 100)} request:`, "", escapeMarkdownBlock(x.request.text, 2000), ""])];
}

export function htmlDifferenceSection(report: RunReport): string {
  const d = report.differential;
  if (d === undefined) return "";
  const items = d.differences.map((x) => `<li><strong>${escapeText(differenceHeadline(x))}</strong><pre>${escapeText([...differenceBody(x), `request: ${x.request.text}`].join("\n"))}</pre></li>`);
  return `<section class="box" id="differences"><h2>Differences against ${escapeText(againstText(report))}</h2><p>${escapeText(`${d.differences.length} kind(s) of difference in ${d.cases} cases answered by both providers (${d.calls} calls${notComparedText(d.notCompared)}). Differences are findings of their own, not clause results.`)}</p>${items.length > 0 ? `<ol>${items.join("")}</ol>` : ""}</section>`;
}

/** JUnit: each difference a failing testcase of the run suite (a reader counts failures only). */
export function junitDifferenceCases(report: RunReport): { name: string; message: string; type: string; body: string[] }[] {
  return (report.differential?.differences ?? []).map((x) => ({ name: `differs from ${againstText(report)}: ${x.id}`, message: differenceHeadline(x), type: "difference", body: differenceBody(x) }));
}

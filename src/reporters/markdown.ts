import { countedFailures } from "../core/report/judge.js";
import type { Buckets, ClauseResult, CountedLevel, Level, RunReport } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { markdownFuzzSection } from "./fuzz-coverage.js";
import { markdownDifferenceSection } from "./differences.js";
import { incompleteHeadline, incompleteTotal } from "./incomplete.js";
import { atBoundNote, atBoundSummary } from "./kit-bound.js";
import { clauseLink } from "./links.js";
import type { ReporterOptions } from "./types.js";
import { isPolicyTest, unitWord } from "./words.js";

/**
 * The Markdown summary, fit for `$GITHUB_STEP_SUMMARY` and pull-request comments. Everything
 * taken from the report goes through `escapeMarkdown`: candidate output cannot add markup,
 * links, images or HTML, nor break a table row.
 */

const MAX_ROWS = 50;
const MAX_LIST = 20;
const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];

/**
 * Characters shown as visible `\uXXXX` escapes: C0 controls (tab, line feed and carriage
 * return get `\t`, `\n`, `\r`), DEL, C1 controls, bidi marks, embeddings, overrides and
 * isolates, line/paragraph separators, the byte order mark and lone surrogates.
 */
const INVISIBLE =
  "[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufeff]" +
  "|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";
/** Markdown and GitHub syntax characters, escaped with a backslash (any ASCII punctuation may be). */
const SYNTAX = "[\\\\`*_{}\\[\\]()#+!|~$]";
const PATTERN = new RegExp(`[&<>]|${SYNTAX}|${INVISIBLE}`, "g");
const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const NAMED: Readonly<Record<string, string>> = { "\n": "\\\\n", "\r": "\\\\r", "\t": "\\\\t" };
/** A zero-width space breaks what GitHub links after rendering: URLs, www., e-mail, @mentions, #refs. */
const ZWSP = "\u200b";

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

/** Escapes report text for a Markdown paragraph, list item or table cell (one line, bounded). */
export function escapeMarkdown(value: unknown, max = 300): string {
  const text = truncate(String(value), max)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\bwww\./gi, (m) => `${m.slice(0, 3)}${ZWSP}.`)
    .replace(/@/g, `@${ZWSP}`)
    .replace(/#(?=\d)/g, `#${ZWSP}`);
  return text.replace(PATTERN, (c) => {
    if (ENTITIES[c] !== undefined) return ENTITIES[c];
    if (NAMED[c] !== undefined) return NAMED[c];
    if (c.length === 1 && /[\\`*_{}[\]()#+!|~$]/.test(c)) return `\\${c}`;
    return `\\\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** Escaped text that begins a list item: also escapes a leading list marker, rule or ordered-list number. */
export function escapeMarkdownBlock(value: unknown, max = 300): string {
  return escapeMarkdown(value, max).replace(/^([-=]|\d+(?=[.)]))/, (m) => (/^\d/.test(m) ? `${m}\\` : `\\${m}`));
}

/** A link target for a clause (its source, or the docs at --docs-url): relative paths, http(s) and file URLs only. */
function safeUrl(url: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url)) return undefined;
  if (scheme !== null && !["http", "https", "file"].includes((scheme[1] ?? "").toLowerCase())) return undefined;
  return url.replace(/[()<>[\]`|\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

function clauseCell(id: string, docsUrl: string | undefined): string {
  const label = escapeMarkdown(id, 120);
  // Only well-formed ids get a link; the kit's catalogue ids always are.
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+){2}$/.test(id)) return label;
  const link = clauseLink(id, docsUrl);
  const url = link === undefined ? undefined : safeUrl(link);
  return url === undefined ? label : `[${label}](${url})`;
}

type Kind = "counted" | "warning" | "expected" | "flaky";
const KIND_LABEL: Record<Kind, string> = { counted: "❌ fails the run", warning: "⚠️ warning", expected: "expected failure", flaky: "flaky" };

function kindOf(result: ClauseResult, counted: ReadonlySet<ClauseResult>): Kind {
  if (result.expectation === "expected-failure") return "expected";
  if (result.expectation === "flaky") return "flaky";
  return counted.has(result) ? "counted" : "warning";
}

const HEADING: Readonly<Record<RunReport["summary"]["verdict"], string>> = {
  conformant: "✅ Conformant",
  "not-conformant": "❌ Not conformant",
  incomplete: "⏸️ Incomplete (not a pass)",
  "nothing-judged": "❌ Nothing was judged (not a pass)",
};

/** A policy-test report's heading says what the cases did. */
const POLICY_HEADING: Readonly<Record<RunReport["summary"]["verdict"], string>> = {
  conformant: "✅ Policy tests pass",
  "not-conformant": "❌ Policy tests fail",
  incomplete: "⏸️ Policy tests incomplete (not a pass)",
  "nothing-judged": "❌ No policy test was judged (not a pass)",
};

function heading(report: RunReport): string {
  const verdict = report.summary.verdict;
  const table = isPolicyTest(report) ? POLICY_HEADING : HEADING;
  const words = Object.hasOwn(table, verdict) ? table[verdict] : table["not-conformant"];
  const bundled = bundledLabel(report);
  return `## ${words}: ${bundled !== undefined ? `${escapeMarkdown(bundled, 80)} · ` : ""}${escapeMarkdown(report.protocol, 40)}${report.mode !== undefined ? ` (${escapeMarkdown(report.mode, 40)})` : ""}`;
}

/** Right under the heading: why the run stopped early (it says so first), then what an incomplete run could not judge. */
function incompleteLead(report: RunReport): string[] {
  const halted = typeof report.halted === "string" ? [`> **Stopped early:** ${escapeMarkdown(report.halted, 1000)}`, ""] : [];
  if (report.summary.verdict !== "incomplete") return halted;
  return [...halted, `> **${escapeMarkdown(incompleteHeadline(report))}**: this run is not a pass until they are. [What to add](#could-not-be-judged) is listed below.`, ""];
}

function about(report: RunReport, counted: number): string[] {
  const s = report.summary;
  const argv = Array.isArray(report.candidate?.argv) ? report.candidate.argv.map(String).join(" ") : "";
  const level = levelOf(report);
  const notJudged = incompleteTotal(report);
  const levels = level === "must" ? "MUST" : level === "should" ? "MUST and SHOULD" : "MUST, SHOULD and MAY";
  const unit = unitWord(report);
  return [
    `- **Candidate:** ${escapeMarkdown(argv, 200)}`,
    `- **Protocol:** ${escapeMarkdown(report.protocol, 40)}${report.mode !== undefined ? `, mode ${escapeMarkdown(report.mode, 40)}` : ""}`,
    `- **Kit:** ${escapeMarkdown(report.tool?.name, 60)} ${escapeMarkdown(report.tool?.version, 40)}`,
    ...(report.shard !== undefined ? [`- **Shard:** ${num(report.shard.index)} of ${num(report.shard.count)}; ${num(report.shard.elsewhere)} clauses left to the other shards (combine the reports with \`awp-conformance merge\`)`] : []),
    `- **Verdict:** ${levels} ${unit}s count (\`--level ${level}\`); ${num(counted)} counted failure${counted === 1 ? "" : "s"}, ` +
      `${num(notJudged)} counted ${unit}${notJudged === 1 ? "" : "s"} not judged, ${num(s.stale.length)} stale expectation${s.stale.length === 1 ? "" : "s"}`,
  ];
}

/** The counted level, from a fixed set (it is printed inside a code span). */
function levelOf(report: RunReport): CountedLevel {
  const level = report.summary.level;
  return level === "should" || level === "all" ? level : "must";
}

function num(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : "?";
}

/** The summary's buckets, in the order the columns show them. */
const COLUMNS: readonly [keyof Buckets, string][] = [
  ["passed", "Passed"],
  ["failed", "Failed"],
  ["warnings", "Warnings"],
  ["expectedFailures", "Expected"],
  ["flaky", "Flaky"],
  ["skipped", "Skipped"],
  ["notApplicable", "Not applicable"],
];

/** Every clause in one column: the cells of a row add up to its Total. */
function countsTable(report: RunReport): string[] {
  const s = report.summary;
  const lines = [`| Level | ${COLUMNS.map(([, label]) => label).join(" | ")} | Total |`, `|---|${COLUMNS.map(() => "---:|").join("")}---:|`];
  for (const level of LEVELS) {
    const row = s.byLevel[level];
    const total = COLUMNS.reduce((n, [key]) => n + (typeof row?.[key] === "number" ? row[key] : 0), 0);
    lines.push(`| ${level} | ${COLUMNS.map(([key]) => num(row?.[key])).join(" | ")} | ${num(total)} |`);
  }
  lines.push(`| **All** | ${COLUMNS.map(([key]) => `**${num(s[key])}**`).join(" | ")} | **${num(s.total)}** |`);
  if (s.deselected > 0) lines.push("", isPolicyTest(report) ? `${num(s.deselected)} case${s.deselected === 1 ? "" : "s"} deselected (\`--case\`).` : `${num(s.deselected)} clause${s.deselected === 1 ? "" : "s"} deselected (\`--clause\`/\`--skip\`).`);
  return lines;
}

function bullets(items: readonly unknown[], what: string): string[] {
  const lines = items.slice(0, MAX_LIST).map((item) => `- ${escapeMarkdownBlock(item)}`);
  if (items.length > MAX_LIST) lines.push(`- … and ${items.length - MAX_LIST} more ${what} in report.json`);
  return lines;
}

function expectations(report: RunReport): string[] {
  const s = report.summary;
  const lines: string[] = [];
  if (s.warnings > 0) lines.push(`- ⚠️ ${num(s.warnings)} warning${s.warnings === 1 ? "" : "s"}: failures of levels that do not count at \`--level ${levelOf(report)}\``);
  if (s.expectedFailures > 0) lines.push(`- ${num(s.expectedFailures)} expected failure${s.expectedFailures === 1 ? "" : "s"} (\`--expected-failures\`): not counted`);
  if (s.flaky > 0) lines.push(`- ${num(s.flaky)} flaky failure${s.flaky === 1 ? "" : "s"} (\`--flaky\`): not counted`);
  const atBound = atBoundSummary(report);
  if (atBound !== "") lines.push(`- ⏱️ ${escapeMarkdown(atBound)}, not the contract's: each such failure says the option that moves the bound and what the candidate was doing when it ran out`);
  if (s.stale.length > 0) {
    lines.push(`- ❌ ${num(s.stale.length)} stale expectation${s.stale.length === 1 ? "" : "s"}, which fail${s.stale.length === 1 ? "s" : ""} the run:`);
    lines.push(...bullets(s.stale, "entries").map((line) => `  ${line}`));
  }
  return lines;
}

function foundBy(result: ClauseResult): string {
  const ways = new Set(result.findings.map((f) => (f.foundBy === "fuzz" ? "fuzzing" : "scenario")));
  return [...ways].sort().join(", ") || "—";
}

function failureRow(result: ClauseResult, kind: Kind, docsUrl: string | undefined): string {
  const first = result.findings[0];
  const more = result.findings.length > 1 ? ` (+${result.findings.length - 1} more)` : "";
  const bound = atBoundNote(result);
  const finding = first === undefined ? "—" : `${bound !== "" ? `⏱️ ${escapeMarkdown(bound, 80)}: ` : ""}${escapeMarkdown(first.message, 200)}${more}`;
  const seen = first?.seen === undefined ? "" : escapeMarkdown(first.seen, 80);
  const cells = [KIND_LABEL[kind], escapeMarkdown(result.level, 10), clauseCell(result.id, docsUrl), escapeMarkdown(result.title, 120), finding, seen, foundBy(result)];
  return `| ${cells.join(" | ")} |`;
}

function failuresTable(report: RunReport, docsUrl: string | undefined): string[] {
  const failing = report.clauses.filter((r) => r.status === "fail");
  if (failing.length === 0) return [];
  const counted = new Set(countedFailures(report.clauses, levelOf(report)));
  const order: readonly Kind[] = ["counted", "warning", "expected", "flaky"];
  const sorted = order.flatMap((kind) => failing.filter((r) => kindOf(r, counted) === kind).map((r) => ({ r, kind })));
  const lines = [
    "### Failures",
    "",
    `| | Level | ${isPolicyTest(report) ? "Case" : "Clause"} | Title | First finding | Seen | Found by |`,
    "|---|---|---|---|---|---|---|",
    ...sorted.slice(0, MAX_ROWS).map(({ r, kind }) => failureRow(r, kind, docsUrl)),
  ];
  if (sorted.length > MAX_ROWS) lines.push("", `… and ${sorted.length - MAX_ROWS} more failing ${unitWord(report)}s in report.json.`);
  return lines;
}

/** The skipped clauses of counted levels, one item per reason (the reason says what to add). */
function notJudged(report: RunReport): string[] {
  const groups = report.summary.incomplete;
  if (groups.length === 0) return [];
  const lead =
    report.summary.verdict === "incomplete"
      ? `${escapeMarkdown(incompleteHeadline(report))}: the run is incomplete. To make it complete:`
      : `${escapeMarkdown(incompleteHeadline(report))} as well:`;
  const items = groups.slice(0, MAX_LIST).map((g) => {
    const ids = g.clauses.slice(0, MAX_LIST).map((id) => `\`${id.replace(/[^a-z0-9/-]/g, "")}\``).join(", ");
    const more = g.clauses.length > MAX_LIST ? ` and ${g.clauses.length - MAX_LIST} more` : "";
    return `- ${escapeMarkdownBlock(g.reason)} — ${ids}${more}`;
  });
  if (groups.length > MAX_LIST) items.push(`- … and ${groups.length - MAX_LIST} more reasons in report.json`);
  return ["### Could not be judged", "", lead, "", ...items];
}

/** Renders the run as GitHub-flavoured Markdown. */
export function renderMarkdown(report: RunReport, options: ReporterOptions): string {
  const counted = countedFailures(report.clauses, levelOf(report)).length;
  const sections: string[][] = [
    [heading(report), "", ...incompleteLead(report), ...about(report, counted)],
    countsTable(report),
    expectations(report),
    failuresTable(report, options.docsUrl),
    notJudged(report),
    report.notes.length > 0 ? ["### Notes", "", ...bullets(report.notes, "notes")] : [],
    markdownFuzzSection(report),
    markdownDifferenceSection(report),
    ["Evidence, wire logs and reproduce commands for every finding are in report.json and report.html."],
  ];
  return `${sections.filter((s) => s.length > 0).map((s) => s.join("\n")).join("\n\n")}\n`;
}

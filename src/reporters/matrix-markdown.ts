/**
 * matrix.md: the conformance matrix as Markdown for a README or a pull-request comment. Compact:
 * per protocol the implementations, the roll-up by area, the clauses where they disagree, and
 * every clause folded in a <details> block. Nothing in it depends on the time or the machine, so
 * the same reports give the same text. Every report string is escaped (markdown.ts).
 */
import type { CellStatus, Matrix, MatrixCell, MatrixColumn, MatrixRollup, MatrixRow, MatrixSection, StatusCounts } from "../core/report/matrix.js";
import { ROLLUP_STATUSES } from "../core/report/matrix.js";
import { verdictLabel } from "./html-header.js";
import { STATUS_LABEL } from "./matrix-html.js";
import { escapeMarkdown } from "./markdown.js";
import { protocolLabel } from "./words.js";

/** One symbol per cell status (a failure that the implementation's --level does not count is a warning). */
export const SYMBOLS: Readonly<Record<CellStatus | "warning", string>> = {
  pass: "✅",
  fail: "❌",
  warning: "⚠️",
  expected: "🟡",
  flaky: "🔀",
  skip: "⏭️",
  na: "➖",
  absent: "–",
  "no-report": "🚫",
};

const LEGEND: readonly [CellStatus | "warning", string][] = [
  ["pass", "pass"],
  ["fail", "fail (counts against that implementation's verdict)"],
  ["warning", "fail of a level its run does not count (a warning)"],
  ["expected", STATUS_LABEL.expected],
  ["flaky", "flaky failure"],
  ["skip", "skipped (could not be judged; the reason is in its report)"],
  ["na", STATUS_LABEL.na],
  ["absent", "not in its report (deselected, or another kit version)"],
  ["no-report", "no report: the candidate did not run"],
];

function symbol(cell: MatrixCell): string {
  return cell.status === "fail" && cell.counted === false ? SYMBOLS.warning : SYMBOLS[cell.status];
}

/** A catalogue id as code; anything else (a policy-test case name) escaped as text. */
const idCell = (id: string): string => (/^[a-z0-9-]+(\/[a-z0-9-]+){2}$/.test(id) ? `\`${id}\`` : escapeMarkdown(id, 120));

const cells = (values: readonly string[]): string => `| ${values.join(" | ")} |`;

function clauseTable(rows: readonly MatrixRow[], columns: readonly MatrixColumn[]): string[] {
  return [
    cells(["Clause", "Level", ...columns.map((c) => escapeMarkdown(c.name, 64))]),
    cells(["---", "---", ...columns.map(() => ":-:")]),
    ...rows.map((r) => cells([idCell(r.id), r.level, ...r.cells.map(symbol)])),
  ];
}

/** "58✅ 1❌ 3➖": a column's counts in a roll-up, the empty ones left out. */
function compact(counts: StatusCounts): string {
  const parts = ROLLUP_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]}${SYMBOLS[s]}`);
  return parts.length === 0 ? "—" : parts.join(" ");
}

function rollupTable(title: string, rollups: readonly MatrixRollup[], columns: readonly MatrixColumn[]): string[] {
  return [
    cells([title, "Clauses", "Disagree", ...columns.map((c) => escapeMarkdown(c.name, 64))]),
    cells(["---", "--:", "--:", ...columns.map(() => "---")]),
    ...rollups.map((r) => cells([escapeMarkdown(r.name, 100), String(r.rows), String(r.disagree), ...r.columns.map(compact)])),
  ];
}

function implementationLine(c: MatrixColumn): string {
  const what = `${c.protocol}${c.mode !== undefined ? ` (mode ${escapeMarkdown(c.mode, 40)})` : ""}`;
  if (c.failure !== undefined) return cells([escapeMarkdown(c.name, 64), what, `🚫 no report: ${escapeMarkdown(c.failure, 200)}`, ""]);
  const verdict = c.verdict !== undefined ? verdictLabel({ verdict: c.verdict } as Parameters<typeof verdictLabel>[0]) : "unknown";
  return cells([escapeMarkdown(c.name, 64), what, `${verdict}${c.level !== undefined ? ` (--level ${escapeMarkdown(c.level, 10)})` : ""}`, escapeMarkdown(c.toolVersion ?? "", 40)]);
}

function sectionMarkdown(section: MatrixSection): string[] {
  const disagree = section.rows.filter((r) => r.disagree);
  return [
    `### ${protocolLabel({ protocol: section.protocol })}`,
    "",
    cells(["Implementation", "Protocol", "Verdict", "Kit"]),
    cells(["---", "---", "---", "---"]),
    ...section.columns.map(implementationLine),
    "",
    ...rollupTable("Level", section.levels, section.columns),
    "",
    ...rollupTable("Area", section.areas, section.columns),
    "",
    disagree.length === 0 ? "The implementations agree on every clause." : `Clauses where the implementations disagree (${disagree.length} of ${section.rows.length}):`,
    "",
    ...(disagree.length === 0 ? [] : [...clauseTable(disagree, section.columns), ""]),
    `<details><summary>All ${section.rows.length} clauses</summary>`,
    "",
    ...clauseTable(section.rows, section.columns),
    "",
    "</details>",
    "",
  ];
}

/** The whole Markdown text. */
export function renderMatrixMarkdown(matrix: Matrix): string {
  const sources = matrix.sources.map((s) => `[${escapeMarkdown(s.title, 100)}](${s.url}) (${escapeMarkdown(s.revision, 100)})`);
  return [
    "## Conformance matrix",
    "",
    `${escapeMarkdown(matrix.tool.name, 40)} ${escapeMarkdown(matrix.tool.version, 40)}${sources.length > 0 ? ` · contract sources: ${sources.join(", ")}` : ""}`,
    "",
    `Symbols: ${LEGEND.map(([s, label]) => `${SYMBOLS[s]} ${label}`).join("; ")}. Each implementation's verdict is its own run's (the matrix is a view of the reports); matrix.html links every cell to the finding in that implementation's report.`,
    "",
    ...(matrix.sections.length === 0 ? ["No implementation.", ""] : matrix.sections.flatMap(sectionMarkdown)),
  ].join("\n");
}

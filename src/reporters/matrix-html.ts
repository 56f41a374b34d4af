/**
 * matrix.html: the conformance matrix as one self-contained page (html.ts's htmlPage: inline
 * style and script pinned by hash, nothing loaded), every string from a report or the command
 * line escaped (html-escape.ts). Rows are clauses grouped by area, columns implementations; each
 * cell links into that implementation's own report.html at the clause (the anchor the run page
 * gives it). Readable without script; the script adds the level, area and disagreement filters.
 */
import type { CellStatus, Matrix, MatrixCell, MatrixColumn, MatrixRollup, MatrixRow, MatrixSection, StatusCounts } from "../core/report/matrix.js";
import { ROLLUP_STATUSES } from "../core/report/matrix.js";
import { badge, KINDS, LEVELS, type RowKind } from "./html-clauses.js";
import { escapeAttr, escapeNumber, escapeText, safeHref } from "./html-escape.js";
import { verdictLabel } from "./html-header.js";
import { htmlPage } from "./html.js";
import { clauseAnchor } from "./links.js";
import { MATRIX_SCRIPT, MATRIX_STYLE } from "./matrix-script.js";
import { protocolLabel } from "./words.js";

/** What each cell status is called, in the page and the legend. */
export const STATUS_LABEL: Readonly<Record<CellStatus, string>> = {
  ...(Object.fromEntries(KINDS.map((k) => [k.kind, k.label])) as Record<RowKind, string>),
  absent: "not in this report",
  "no-report": "no report",
};

/** A path inside the matrix folder: the column's folder, then a file. */
function href(column: MatrixColumn, file: string, fragment = ""): string {
  return `${escapeAttr(encodeURIComponent(column.dir))}/${file}${fragment === "" ? "" : `#${escapeAttr(fragment)}`}`;
}

function cellHtml(cell: MatrixCell, row: MatrixRow, column: MatrixColumn): string {
  if (cell.status === "absent" || cell.status === "no-report") {
    return `<td class="cell" data-status="${cell.status}"><span class="badge k-${cell.status}" title="${STATUS_LABEL[cell.status]}">—</span></td>`;
  }
  // The tooltip holds fixed words and a number only: report text stays out of attributes (the reason is in the linked report).
  const tip = [STATUS_LABEL[cell.status], cell.findings !== undefined ? `${cell.findings} finding${cell.findings === 1 ? "" : "s"}` : undefined].filter((t) => t !== undefined).join(": ");
  const warning = cell.status === "fail" && cell.counted === false ? '<span class="warn-mark">warning</span>' : "";
  return `<td class="cell" data-status="${cell.status}"><a href="${href(column, "report.html", clauseAnchor(row.id))}" title="${escapeAttr(tip)}">${badge(cell.status)}</a>${warning}</td>`;
}

function rowHtml(row: MatrixRow, columns: readonly MatrixColumn[]): string {
  const cells = row.cells.map((cell, i) => cellHtml(cell, row, columns[i] as MatrixColumn));
  return [
    `<tr class="row${row.disagree ? " disagree" : ""}" data-level="${escapeAttr(row.level)}" data-area="${escapeAttr(row.area)}" data-disagree="${row.disagree ? 1 : 0}">`,
    `<th scope="row" class="cid"><code>${escapeText(row.id)}</code><span class="title bidi">${escapeText(row.title)}</span></th>`,
    `<td class="lvl">${escapeText(row.level)}</td>`,
    ...cells,
    "</tr>",
  ].join("");
}

function columnHead(column: MatrixColumn): string {
  const name = `<span class="bidi">${escapeText(column.name)}</span>`;
  return `<th scope="col">${column.failure === undefined ? `<a href="${href(column, "report.html")}">${name}</a>` : name}</th>`;
}

function matrixTable(section: MatrixSection): string {
  const width = 2 + section.columns.length;
  const bodies = [...new Set(section.rows.map((r) => r.area))].map((area) => {
    const rows = section.rows.filter((r) => r.area === area);
    return [`<tbody>`, `<tr class="area-head" data-area="${escapeAttr(area)}"><th colspan="${width}">${escapeText(area)}</th></tr>`, ...rows.map((r) => rowHtml(r, section.columns)), "</tbody>"].join("\n");
  });
  if (bodies.length === 0) return '<p class="muted">No report of this protocol holds a clause.</p>';
  return [`<div class="scroll"><table class="matrix">`, `<thead><tr><th scope="col">clause</th><th scope="col">level</th>${section.columns.map(columnHead).join("")}</tr></thead>`, ...bodies, "</table></div>"].join("\n");
}

/** "12 pass · 1 fail · 3 skip": the statuses a column has in a roll-up, the empty ones left out. */
export function countsText(counts: StatusCounts): string {
  const parts = ROLLUP_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s === "warning" ? "warning" : STATUS_LABEL[s]}`);
  return parts.length === 0 ? "—" : parts.join(" · ");
}

function rollupTable(title: string, rollups: readonly MatrixRollup[], columns: readonly MatrixColumn[]): string {
  const head = `<tr><th scope="col">${title}</th><th scope="col">clauses</th><th scope="col">disagree</th>${columns.map((c) => `<th scope="col" class="bidi">${escapeText(c.name)}</th>`).join("")}</tr>`;
  const body = rollups.map((r) => {
    const cells = r.columns.map((counts) => `<td${counts.fail > 0 ? ' class="n-fail"' : ""}>${escapeText(countsText(counts))}</td>`);
    return `<tr><th scope="row">${escapeText(r.name)}</th><td>${escapeNumber(r.rows)}</td><td${r.disagree > 0 ? ' class="n-disagree"' : ""}>${escapeNumber(r.disagree)}</td>${cells.join("")}</tr>`;
  });
  return `<div class="scroll"><table class="levels rollup"><thead>${head}</thead><tbody>${body.join("\n")}</tbody></table></div>`;
}

function implementations(section: MatrixSection): string {
  const rows = section.columns.map((c) => {
    const what = `${escapeText(c.protocol)}${c.mode !== undefined ? ` · mode <code>${escapeText(c.mode)}</code>` : ""}`;
    if (c.failure !== undefined) {
      return `<tr><th scope="row" class="bidi">${escapeText(c.name)}</th><td>${what}</td><td colspan="3" class="failure bidi">No report: ${escapeText(c.failure)}</td></tr>`;
    }
    const verdict = c.verdict !== undefined ? verdictLabel({ verdict: c.verdict } as Parameters<typeof verdictLabel>[0]) : "unknown";
    const files = `<a href="${href(c, "report.html")}">report</a> · <a href="${href(c, "report.json")}">JSON</a> · <a href="${href(c, "badge.svg")}">badge</a>`;
    return `<tr><th scope="row" class="bidi">${escapeText(c.name)}</th><td>${what}</td><td data-verdict="${escapeAttr(c.verdict ?? "")}">${escapeText(verdict)}${c.level !== undefined ? ` <span class="muted">(--level ${escapeText(c.level)})</span>` : ""}</td><td>${escapeText(c.toolVersion ?? "")}</td><td>${files}</td></tr>`;
  });
  return `<div class="scroll"><table class="levels implementations"><thead><tr><th scope="col">implementation</th><th scope="col">protocol</th><th scope="col">verdict</th><th scope="col">kit</th><th scope="col">files</th></tr></thead><tbody>${rows.join("\n")}</tbody></table></div>`;
}

function sectionHtml(section: MatrixSection): string {
  const disagree = section.rows.filter((r) => r.disagree).length;
  return [
    `<section class="protocol" id="protocol-${escapeAttr(section.protocol)}">`,
    `<h2>${escapeText(protocolLabel({ protocol: section.protocol }))} <span class="muted">${section.columns.length} implementation${section.columns.length === 1 ? "" : "s"} · ${section.rows.length} clauses · ${disagree} where they disagree</span></h2>`,
    implementations(section),
    "<h3>By level</h3>",
    rollupTable("level", section.levels, section.columns),
    "<h3>By area</h3>",
    rollupTable("area", section.areas, section.columns),
    "<h3>Clauses</h3>",
    matrixTable(section),
    "</section>",
  ].join("\n");
}

function filterForm(matrix: Matrix): string {
  const areas = [...new Set(matrix.sections.flatMap((s) => s.areas.map((a) => a.name)))];
  const levels = LEVELS.map((level) => `<label><input type="checkbox" name="level" value="${level}" checked> ${level}</label>`);
  return [
    '<form class="filters" id="filters" hidden>',
    `<fieldset><legend>Level</legend>${levels.join("")}</fieldset>`,
    `<fieldset><legend>Area</legend><select id="area" name="area"><option value="">every area</option>${areas.map((a) => `<option value="${escapeAttr(a)}">${escapeText(a)}</option>`).join("")}</select></fieldset>`,
    '<fieldset><label><input type="checkbox" id="disagree" name="disagree" value="1"> only rows where the implementations disagree</label></fieldset>',
    '<span class="shown" id="shown" aria-live="polite"></span>',
    "</form>",
  ].join("\n");
}

function header(matrix: Matrix): string {
  const sources = matrix.sources.map((s) => {
    const link = safeHref(s.url);
    return `<li>${link === undefined ? escapeText(s.title) : `<a class="src" href="${link}">${escapeText(s.title)}</a>`} <span class="muted">(${escapeText(s.revision)})</span></li>`;
  });
  const legend = (Object.keys(STATUS_LABEL) as CellStatus[]).map((s) => `<li>${s === "absent" || s === "no-report" ? `<span class="badge k-${s}">—</span>` : badge(s)} ${STATUS_LABEL[s]}</li>`);
  return [
    '<header class="page">',
    "<h1>Conformance matrix</h1>",
    `<dl class="meta"><dt>kit</dt><dd>${escapeText(matrix.tool.name)} ${escapeText(matrix.tool.version)}</dd><dt>contract sources</dt><dd><ul>${sources.join("")}</ul></dd></dl>`,
    `<p class="muted">Each cell links to that implementation's own report at the clause; its verdict is there and in the table of implementations. A row is marked where implementations with a result for the clause disagree on pass, fail, skip or not applicable (expected and flaky failures count as failures). A warning is a failure of a level that implementation's run does not count.</p>`,
    `<ul class="counts legend">${legend.join("")}</ul>`,
    filterForm(matrix),
    "</header>",
  ].join("\n");
}

/** The whole page. */
export function renderMatrixHtml(matrix: Matrix): string {
  const body = matrix.sections.length === 0 ? ['<main class="matrix"><p class="muted">No implementation.</p></main>'] : ['<main class="matrix">', ...matrix.sections.map(sectionHtml), "</main>"];
  return htmlPage({
    title: `${matrix.tool.name} · conformance matrix`,
    style: MATRIX_STYLE,
    script: MATRIX_SCRIPT,
    body: [header(matrix), ...body, `<footer>Generated by ${escapeText(matrix.tool.name)} ${escapeText(matrix.tool.version)} from matrix.json, which holds the same data.</footer>`],
  });
}

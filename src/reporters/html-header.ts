import type { Buckets, ClauseResult, CountedLevel, RunReport, Summary } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { areaAnchor, badge, groupByArea, KINDS, kindOf, LEVELS, tally } from "./html-clauses.js";
import { escapeAttr, escapeNumber, escapeText, shellQuote } from "./html-escape.js";
import { incompleteHeadline } from "./incomplete.js";
import { atBoundSummary } from "./kit-bound.js";
import { clauseAnchor } from "./links.js";
import { isPolicyTest, reportTitle, unitWord } from "./words.js";

const VERDICT: Readonly<Record<Summary["verdict"], { key: string; label: string }>> = {
  conformant: { key: "conformant", label: "Conformant" },
  "not-conformant": { key: "not-conformant", label: "Not conformant" },
  incomplete: { key: "incomplete", label: "Incomplete" },
  "nothing-judged": { key: "nothing-judged", label: "Nothing judged" },
};

const COUNTED_LABEL: Readonly<Record<CountedLevel, string>> = { must: "MUST", should: "MUST and SHOULD", all: "MUST, SHOULD and MAY" };

/** The verdict's key and label; anything unknown (a hand-edited report) reads as not conformant. */
function verdictOf(summary: Summary): { key: string; label: string } {
  return Object.hasOwn(VERDICT, summary.verdict) ? VERDICT[summary.verdict] : VERDICT["not-conformant"];
}

export function verdictLabel(summary: Summary): string {
  return verdictOf(summary).label;
}

function verdictBox(report: RunReport): string {
  const summary = report.summary;
  const v = verdictOf(summary);
  let detail: string;
  if (summary.verdict === "nothing-judged") detail = `no ${unitWord(report)} was judged: a vacuous run is not a pass`;
  else if (summary.verdict === "conformant") detail = `every counted ${unitWord(report)} was judged and held`;
  else if (summary.verdict === "incomplete") detail = `${incompleteHeadline(report)}: not a pass until they are`;
  else {
    const reasons: string[] = [];
    const atBound = atBoundSummary(report);
    if (summary.failed > 0) reasons.push(`${summary.failed} counted failure${summary.failed === 1 ? "" : "s"}${atBound !== "" ? ` (${atBound})` : ""}`);
    if (summary.stale.length > 0) reasons.push(`${summary.stale.length} stale expected-failure entr${summary.stale.length === 1 ? "y" : "ies"}`);
    detail = reasons.join(", ");
  }
  return `<div class="verdict v-${v.key}" role="status" data-verdict="${v.key}">${v.label}<small>${escapeText(detail)}</small></div>`;
}

/**
 * The skipped clauses of counted levels, by reason: the banner of an incomplete run (right
 * under the verdict), or a box beside the failures of a run that also failed.
 */
function incompleteBox(report: RunReport): string {
  const groups = report.summary.incomplete;
  if (groups.length === 0) return "";
  const title =
    report.summary.verdict === "incomplete"
      ? `Incomplete — ${incompleteHeadline(report)}. To make the run complete:`
      : `Also incomplete — ${incompleteHeadline(report)}:`;
  const items = groups.map((g) => {
    const ids = g.clauses.map((id) => `<a href="#${escapeAttr(clauseAnchor(id))}"><code>${escapeText(id)}</code></a>`).join(", ");
    return `<li><span class="bidi">${escapeText(g.reason)}</span><div class="ids">${ids}</div></li>`;
  });
  return ['<section class="box incomplete" id="incomplete">', `<h2>${escapeText(title)}</h2>`, `<ul>${items.join("\n")}</ul>`, "</section>"].join("\n");
}

/** Why the run stopped early, right under the verdict. */
function haltedBox(report: RunReport): string {
  if (typeof report.halted !== "string") return "";
  return ['<section class="box incomplete" id="halted">', "<h2>Stopped early</h2>", `<p class="bidi">${escapeText(report.halted)}</p>`, "</section>"].join("\n");
}

function duration(startedAt: string, endedAt: string): string {
  const ms = Date.parse(endedAt) - Date.parse(startedAt);
  if (!Number.isFinite(ms)) return "unknown";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function metaList(report: RunReport): string {
  const argv = report.candidate.argv.map((arg) => shellQuote(arg)).join(" ");
  const rows: [string, string][] = [
    ["protocol", `${escapeText(report.protocol)}${report.mode !== undefined ? ` · mode <code>${escapeText(report.mode)}</code>` : ""}`],
    ["candidate", `<code class="bidi">${escapeText(argv)}</code>`],
    ["kit", `${escapeText(report.tool.name)} ${escapeText(report.tool.version)}`],
    ["started", `<time>${escapeText(report.startedAt)}</time>`],
    ["ended", `<time>${escapeText(report.endedAt)}</time> (${escapeText(duration(report.startedAt, report.endedAt))})`],
    ["counted level", `${escapeText(COUNTED_LABEL[report.summary.level] ?? report.summary.level)} failures decide the verdict (--level ${escapeText(report.summary.level)})`],
  ];
  // A policy test's selection is its --case patterns.
  const flag = isPolicyTest(report) ? "--case" : "--clause";
  const selection = [...report.selection.clause.map((c) => `${flag} ${c}`), ...report.selection.skip.map((c) => `--skip ${c}`)];
  if (selection.length > 0) rows.push(["selection", `<code>${escapeText(selection.join(" "))}</code>`]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("\n")}</dl>`;
}

function count(key: string, label: string, value: number): string {
  return `<li><b data-count="${key}">${escapeNumber(value)}</b>${label}</li>`;
}

/** The buckets, in the order the counts show them: every clause is in exactly one. */
const BUCKETS: readonly [keyof Buckets, string][] = [
  ["passed", "passed"],
  ["failed", "failed"],
  ["warnings", "warnings"],
  ["expectedFailures", "expected failures"],
  ["flaky", "flaky"],
  ["skipped", "skipped"],
  ["notApplicable", "not applicable"],
];

function countsBlock(report: RunReport): string {
  const summary = report.summary;
  const items = [
    count("total", `${unitWord(report)}s`, summary.total),
    ...BUCKETS.map(([key, label]) => count(key, label, summary[key])),
    count("deselected", "deselected", summary.deselected),
    count("stale", "stale entries", summary.stale.length),
  ];
  const levelRows = LEVELS.map((level) => {
    const l = summary.byLevel[level];
    const cells = BUCKETS.map(([k]) => `<td data-count="${level}.${k}">${escapeNumber(l?.[k] ?? 0)}</td>`);
    return `<tr><th scope="row">${level}</th>${cells.join("")}</tr>`;
  });
  const head = BUCKETS.map(([, label]) => `<th scope="col">${label}</th>`).join("");
  return [
    `<ul class="counts">${items.join("")}</ul>`,
    `<div class="scroll"><table class="levels"><thead><tr><th scope="col">level</th>${head}</tr></thead>`,
    `<tbody>${levelRows.join("")}</tbody></table></div>`,
  ].join("\n");
}

function staleBox(stale: readonly string[]): string {
  if (stale.length === 0) return "";
  return [
    '<section class="box stale" id="stale">',
    "<h2>Stale expected-failure entries — these fail the run</h2>",
    `<ul>${stale.map((entry) => `<li>${escapeText(entry)}</li>`).join("")}</ul>`,
    "</section>",
  ].join("\n");
}

function notesBox(notes: readonly string[]): string {
  if (notes.length === 0) return "";
  return `<section class="box notes"><h2>Notes</h2><ul>${notes.map((n) => `<li class="bidi">${escapeText(n)}</li>`).join("")}</ul></section>`;
}

/** Quick links to every failing clause, counted or not. */
function failuresBox(clauses: readonly ClauseResult[]): string {
  const failing = clauses.filter((c) => c.status === "fail");
  if (failing.length === 0) return "";
  const items = failing.map(
    (c) => `<li>${badge(kindOf(c))} <span class="lvl">${escapeText(c.level)}</span> <a href="#${escapeAttr(clauseAnchor(c.id))}"><code>${escapeText(c.id)}</code></a> <span class="muted">${escapeText(c.title)}</span></li>`,
  );
  return `<section class="box failures"><h2>Failures</h2><ul>${items.join("\n")}</ul></section>`;
}

function areaNav(report: RunReport): string {
  const links = [...groupByArea(report.clauses)].map(([area, results]) => {
    const failing = results.filter((r) => kindOf(r) === "fail").length;
    const mark = failing > 0 ? ` <span class="n-fail">${failing} fail</span>` : "";
    return `<li><a href="#${areaAnchor(area)}" title="${escapeAttr(tally(results, unitWord(report)))}">${escapeText(area)}${mark}</a></li>`;
  });
  return links.length > 0 ? `<nav class="areas" aria-label="Protocol areas"><ul>${links.join("")}</ul></nav>` : "";
}

/** The filter bar: hidden in the markup, shown by the script (without it, everything is visible). */
export function filterForm(clauses: readonly ClauseResult[]): string {
  const kinds = KINDS.map(({ kind, label }) => {
    const n = clauses.filter((c) => kindOf(c) === kind).length;
    return `<label><input type="checkbox" name="kind" value="${kind}" checked> ${label} <span class="muted">(${n})</span></label>`;
  });
  const levels = LEVELS.map((level) => `<label><input type="checkbox" name="level" value="${level}" checked> ${level}</label>`);
  return [
    '<form class="filters" id="filters" hidden>',
    `<fieldset><legend>Status</legend>${kinds.join("")}</fieldset>`,
    `<fieldset><legend>Level</legend>${levels.join("")}</fieldset>`,
    '<fieldset><button type="button" data-action="all">Show all</button><button type="button" data-action="expand">Expand</button>' +
      '<button type="button" data-action="collapse">Collapse</button></fieldset>',
    '<span class="shown" id="shown" aria-live="polite"></span>',
    "</form>",
  ].join("\n");
}

/** Everything above the clause list: verdict, run facts, counts, stale entries, notes. */
/** "bundled example NAME · " before the protocol, for a report of one of the kit's own examples. */
function bundledHeading(report: RunReport): string {
  const bundled = bundledLabel(report);
  return bundled === undefined ? "" : `${escapeText(bundled)} · `;
}

export function renderHeader(report: RunReport): string {
  return [
    '<header class="page">',
    `<h1>${reportTitle(report)} · ${bundledHeading(report)}${escapeText(report.protocol)}${report.mode !== undefined ? ` (${escapeText(report.mode)})` : ""}</h1>`,
    verdictBox(report),
    haltedBox(report),
    incompleteBox(report),
    metaList(report),
    countsBlock(report),
    staleBox(report.summary.stale),
    failuresBox(report.clauses),
    notesBox(report.notes),
    areaNav(report),
    filterForm(report.clauses),
    "</header>",
  ]
    .filter((part) => part !== "")
    .join("\n");
}

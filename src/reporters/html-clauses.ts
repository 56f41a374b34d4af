import { sourceLabel, sourceRevision, sourceUrl } from "../core/clauses/sources.js";
import type { Clause, ClauseResult, CountedLevel, Level } from "../core/report/types.js";
import { escapeAttr, escapeNumber, escapeText, safeHref } from "./html-escape.js";
import { renderFindings, renderWire } from "./html-findings.js";
import { atBoundNote } from "./kit-bound.js";
import { areaOf, clauseAnchor, clauseLink } from "./links.js";

/** What a clause row is filed under: its status, with expected and flaky failures apart. */
export type RowKind = "pass" | "fail" | "expected" | "flaky" | "skip" | "na";

export const KINDS: readonly { kind: RowKind; label: string; badge: string }[] = [
  { kind: "fail", label: "fail", badge: "FAIL" },
  { kind: "expected", label: "expected failure", badge: "EXPECTED" },
  { kind: "flaky", label: "flaky", badge: "FLAKY" },
  { kind: "pass", label: "pass", badge: "PASS" },
  { kind: "skip", label: "skip", badge: "SKIP" },
  { kind: "na", label: "not applicable", badge: "N/A" },
];

export const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];

const COUNTED: Readonly<Record<CountedLevel, readonly string[]>> = { must: ["MUST"], should: ["MUST", "SHOULD"], all: ["MUST", "SHOULD", "MAY"] };

export function kindOf(result: ClauseResult): RowKind {
  switch (result.status) {
    case "pass":
      return "pass";
    case "fail":
      return result.expectation === "expected-failure" ? "expected" : result.expectation === "flaky" ? "flaky" : "fail";
    case "skip":
      return "skip";
    default:
      return "na";
  }
}

/** A level from the report, mapped onto MUST/SHOULD/MAY (anything else is "other"). */
export function levelOf(result: ClauseResult): string {
  return LEVELS.includes(result.level) ? result.level : "other";
}

/** Whether a failure counts against the verdict at the run's --level (else it is a warning). */
export function countsAgainst(result: ClauseResult, level: CountedLevel): boolean {
  return kindOf(result) === "fail" && (COUNTED[level] ?? COUNTED.must).includes(result.level);
}

export function badge(kind: RowKind): string {
  const entry = KINDS.find((k) => k.kind === kind);
  return `<span class="badge k-${kind}">${entry?.badge ?? ""}</span>`;
}

export interface ClauseContext {
  catalogue: ReadonlyMap<string, Clause>;
  docsUrl: string | undefined;
  level: CountedLevel;
  maxFindings: number;
  /** What an entry is: a catalogue clause, or a policy-test case. */
  unit: "case" | "clause";
}

function clauseBody(result: ClauseResult, ctx: ClauseContext): string {
  const kind = kindOf(result);
  const parts: string[] = [];
  const known = ctx.catalogue.get(result.id);
  if (known !== undefined) {
    parts.push(`<p class="clause-text">${escapeText(known.text)}</p>`);
    const source = escapeText(sourceLabel(known.source));
    const url = sourceUrl(known.source);
    const href = url === undefined ? undefined : safeHref(url);
    const revision = sourceRevision(known.source);
    parts.push(`<p class="source">Source: ${href === undefined ? source : `<a class="src" href="${href}">${source}</a>`}${revision === undefined ? "" : ` <span class="muted">(${escapeText(revision)})</span>`}</p>`);
  } else {
    parts.push(ctx.unit === "case" ? '<p class="clause-text muted">A case of your policy-test files: what it expects is written there.</p>' : '<p class="clause-text muted">This clause is not in this kit\'s catalogue: no text to show.</p>');
  }
  // The clause docs only where the user hosts them (--docs-url); the source link above works anywhere.
  const docs = ctx.docsUrl === undefined ? undefined : safeHref(clauseLink(result.id, ctx.docsUrl) ?? "");
  if (docs !== undefined) parts.push(`<p class="source"><a class="docs" href="${docs}">Clause documentation</a></p>`);
  if (result.reason !== undefined) {
    parts.push(`<p class="reason"><strong>${kind === "skip" ? "Skipped" : "Not applicable"}:</strong> ${escapeText(result.reason)}</p>`);
  }
  if (kind === "expected") parts.push('<p class="expectation">Listed as an expected failure: it does not count against the verdict.</p>');
  if (kind === "flaky") parts.push('<p class="expectation">Listed as flaky: this failure does not count against the verdict.</p>');
  if (kind === "fail" && !countsAgainst(result, ctx.level)) {
    parts.push(`<p class="expectation">A warning: ${escapeText(result.level)} failures do not count at --level ${escapeText(ctx.level)}.</p>`);
  }
  if (result.status === "pass" || result.status === "fail") {
    parts.push(`<p class="judged">Judged on ${escapeNumber(result.judged)} exchange${result.judged === 1 ? "" : "s"} or events.</p>`);
  }
  if (result.findings.length > 0) parts.push(renderFindings(result.findings, ctx.maxFindings));
  const pass = result.passEvidence;
  // --evidence all: what the pass was judged on, collapsed.
  if (pass !== undefined) parts.push(`<details class="pass-evidence"><summary>Judged on: ${escapeText(pass.scenario)}${pass.requestId !== undefined ? ` (request ${escapeText(pass.requestId)})` : ""}</summary>\n${renderWire(pass.wire)}\n</details>`);
  return parts.join("\n");
}

/** One clause: a summary line (badge, level, id, title) and a body, open when it fails. */
export function renderClause(result: ClauseResult, ctx: ClauseContext): string {
  const kind = kindOf(result);
  const anchor = escapeAttr(clauseAnchor(result.id));
  const open = kind === "fail" ? " open" : "";
  const tags: string[] = [];
  if (kind === "fail" && !countsAgainst(result, ctx.level)) tags.push('<span class="tag warning">warning</span>');
  if (kind === "pass" && result.expectation === "flaky") tags.push('<span class="tag flaky">listed as flaky</span>');
  const bound = atBoundNote(result);
  if (bound !== "") tags.push(`<span class="tag warning">${escapeText(bound)}</span>`);
  if (result.findings.length > 0) tags.push(`<span class="tag">${result.findings.length} finding${result.findings.length === 1 ? "" : "s"}</span>`);
  return [
    `<details class="clause k-${kind}" id="${anchor}" data-kind="${kind}" data-level="${escapeAttr(levelOf(result))}"${open}>`,
    `<summary>${badge(kind)} <span class="lvl">${escapeText(result.level)}</span> <code class="cid">${escapeText(result.id)}</code>` +
      ` <span class="title bidi">${escapeText(result.title)}</span> ${tags.join(" ")}</summary>`,
    `<div class="clause-body">\n${clauseBody(result, ctx)}\n</div>`,
    "</details>",
  ].join("\n");
}

/**
 * Where a row goes in the page: what needs a person first. Counted failures, then warnings,
 * expected and flaky failures, skips that leave the run incomplete, then passes, other skips
 * and not-applicable clauses.
 */
function attentionRank(result: ClauseResult, level: CountedLevel): number {
  const kind = kindOf(result);
  if (kind === "fail") return countsAgainst(result, level) ? 0 : 1;
  if (kind === "expected" || kind === "flaky") return 2;
  if (kind === "skip") return (COUNTED[level] ?? COUNTED.must).includes(result.level) ? 3 : 5;
  return kind === "pass" ? 4 : 6;
}

/** The clauses in the page's order (stable within a rank): grouped by area, the area of the first failure comes first. */
export function attentionOrder(clauses: readonly ClauseResult[], level: CountedLevel): ClauseResult[] {
  return clauses
    .map((result, i) => ({ result, i, rank: attentionRank(result, level) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((entry) => entry.result);
}

/** Clause results grouped by protocol area, in the order given (an area where its first result is). */
export function groupByArea(clauses: readonly ClauseResult[]): Map<string, ClauseResult[]> {
  const areas = new Map<string, ClauseResult[]>();
  for (const result of clauses) {
    const area = areaOf(result.id);
    const list = areas.get(area) ?? [];
    list.push(result);
    areas.set(area, list);
  }
  return areas;
}

export function areaAnchor(area: string): string {
  return `area-${escapeAttr(clauseAnchor(area))}`;
}

/** A one-line tally such as "12 clauses · 1 fail · 11 pass". */
export function tally(results: readonly ClauseResult[], unit: "case" | "clause" = "clause"): string {
  const parts = [`${results.length} ${unit}${results.length === 1 ? "" : "s"}`];
  for (const { kind, label } of KINDS) {
    const n = results.filter((r) => kindOf(r) === kind).length;
    if (n > 0) parts.push(`${n} ${label}`);
  }
  return parts.join(" · ");
}

/** One section per protocol area, one entry per clause. */
export function renderAreas(clauses: readonly ClauseResult[], ctx: ClauseContext): string {
  const sections: string[] = [];
  for (const [area, results] of groupByArea(clauses)) {
    sections.push(
      [
        `<section class="area" id="${areaAnchor(area)}">`,
        `<h2>${escapeText(area)} <span class="muted">${tally(results, ctx.unit)}</span></h2>`,
        ...results.map((r) => renderClause(r, ctx)),
        "</section>",
      ].join("\n"),
    );
  }
  if (sections.length === 0) return `<p class="muted">No ${ctx.unit} was selected in this run.</p>`;
  return sections.join("\n");
}

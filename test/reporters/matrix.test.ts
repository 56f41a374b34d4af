/**
 * matrix.html and matrix.md (src/reporters/matrix-*.ts), rendered from saved reports: the page
 * passes the run report's escaping checks (one hashed script and style, nothing loaded, hostile
 * names and reasons shown as text), each cell links to the clause's anchor in that
 * implementation's report.html, the filters work without network, and the Markdown is stable.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import { buildMatrix, type Matrix, type MatrixInput } from "../../src/core/report/matrix.js";
import type { ClauseResult, RunReport } from "../../src/core/report/types.js";
import { escapeAttr, escapeText } from "../../src/reporters/html-escape.js";
import { renderHtml } from "../../src/reporters/html.js";
import { renderMatrixHtml } from "../../src/reporters/matrix-html.js";
import { renderMatrixMarkdown } from "../../src/reporters/matrix-markdown.js";
import { MATRIX_SCRIPT, MATRIX_STYLE } from "../../src/reporters/matrix-script.js";

const FIXTURES = new URL("../fixtures/reports/", import.meta.url);
const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), "utf8")) as RunReport;
const TOOL = { name: "awp-conformance", version: "0.0.0-test" };
const HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(1)> a|b \u202eevil\u0007";

const provider = load("provider-sample");
const agent = load("agent-cli-sample");

/** The sample with its one counted failure fixed: the two disagree on exactly that clause. */
function fixedSample(): RunReport {
  const clauses = provider.clauses.map((c): ClauseResult => (c.status === "fail" && c.expectation === undefined ? { ...c, status: "pass", findings: [] } : c));
  return { ...provider, clauses, summary: summarize(clauses, provider.summary.deselected, { level: provider.summary.level }) };
}

const input = (name: string, report: RunReport | undefined, extra: Partial<MatrixInput> = {}): MatrixInput => ({ name, dir: extra.dir ?? name, protocol: report?.protocol ?? "provider", origin: "report", ...(report !== undefined ? { report } : {}), ...extra });

function sample(): Matrix {
  const hostileSkip = { ...provider, clauses: provider.clauses.map((c) => (c.status === "skip" ? { ...c, reason: `reason ${HOSTILE}` } : c)) };
  return buildMatrix(
    [
      input("reference", fixedSample()),
      input(`mock ${HOSTILE}`, hostileSkip, { dir: "mock" }),
      input("broken", undefined, { origin: "run", failure: `cannot start ${HOSTILE}` }),
      input("agent", agent),
    ],
    TOOL,
  );
}

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("matrix.html", () => {
  const matrix = sample();
  const html = renderMatrixHtml(matrix);

  it("is one self-contained page: the matrix's one script and style, pinned by hash in a strict policy, nothing loaded", () => {
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).toContain(`<script>${MATRIX_SCRIPT}</script>`);
    expect(html.match(/<style/gi)).toHaveLength(1);
    expect(html).toContain(`<style>${MATRIX_STYLE}</style>`);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
    for (const part of ["default-src 'none'", `script-src ${sha256(MATRIX_SCRIPT)}`, `style-src ${sha256(MATRIX_STYLE)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"]) expect(csp).toContain(part);
    expect(csp).not.toContain("unsafe");
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it("shows a hostile candidate name and failure as text, never markup", () => {
    for (const raw of ["<script>alert", "<img", "onerror=alert(1)>"]) expect(html).not.toContain(raw);
    expect(html).toContain(escapeText(`mock ${HOSTILE}`));
    expect(html).toContain(escapeText(`cannot start ${HOSTILE}`));
  });

  it("links each cell to the clause's anchor in that implementation's report.html, and nowhere else", () => {
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
    for (const href of hrefs) expect(/^https:\/\/github\.com\//.test(href) || /^[A-Za-z0-9._-]+\/(report\.html|report\.json|badge\.svg)(#.*)?$/.test(href), href).toBe(true);
    const reportOf: Record<string, RunReport> = { reference: fixedSample(), mock: provider, agent };
    for (const [dir, report] of Object.entries(reportOf)) {
      const page = renderHtml(report, { color: false });
      const anchors = hrefs.filter((h) => h.startsWith(`${dir}/report.html#`)).map((h) => h.slice(`${dir}/report.html#`.length));
      expect(anchors).toHaveLength(report.clauses.length);
      for (const anchor of anchors) expect(page, anchor).toContain(` id="${anchor}"`);
    }
    // The candidate without a report has no link, and says why in its column.
    expect(hrefs.some((h) => h.startsWith("broken/"))).toBe(false);
    expect(html).toContain('<td class="cell" data-status="no-report">');
  });

  it("marks the disagreeing rows, and offers level, area and disagreement filters, hidden until the script runs", () => {
    const marked = [...html.matchAll(/<tr class="row disagree"[^>]*>.*?<code>([^<]*)<\/code>/g)].map((m) => m[1]);
    expect(marked).toEqual(matrix.sections.flatMap((s) => s.rows.filter((r) => r.disagree).map((r) => escapeText(r.id))));
    expect(marked.length).toBeGreaterThan(0);
    expect(html).toContain('<form class="filters" id="filters" hidden>');
    for (const level of ["MUST", "SHOULD", "MAY"]) expect(html).toContain(`name="level" value="${level}" checked>`);
    for (const area of matrix.sections.flatMap((s) => s.areas.map((a) => a.name))) expect(html).toContain(`<option value="${escapeAttr(area)}">`);
    expect(html).toContain('<input type="checkbox" id="disagree"');
  });

  it("names the kit version, the contract sources and each implementation's protocol and mode", () => {
    expect(html).toContain("awp-conformance 0.0.0-test");
    for (const s of matrix.sources) expect(html).toContain(`<a class="src" href="${escapeAttr(s.url)}">${escapeText(s.title)}</a>`);
    expect(html).toContain(`agent-cli · mode <code>${escapeText(agent.mode ?? "")}</code>`);
    expect(html).toContain('<a href="reference/badge.svg">badge</a>');
  });
});

/** A stand-in for the few DOM calls the script makes: enough to run its filters. */
function fakeDom(rows: { level: string; area: string; disagree: string }[]): { run: (change: { levels?: Record<string, boolean>; area?: string; disagree?: boolean }) => boolean[]; shown: () => string } {
  const body = {};
  const attrs = (values: Record<string, string>): ((name: string) => string | null) => (name) => values[name] ?? null;
  const rowEls = rows.map((r) => ({ hidden: false, parentNode: body, getAttribute: attrs({ "data-level": r.level, "data-area": r.area, "data-disagree": r.disagree }) }));
  const heads = [...new Set(rows.map((r) => r.area))].map((area) => ({ hidden: false, parentNode: body, getAttribute: attrs({ "data-area": area }) }));
  const levels = ["MUST", "SHOULD", "MAY"].map((value) => ({ value, checked: true }));
  const area = { value: "" };
  const disagree = { checked: false };
  const shown = { textContent: "" };
  const listeners: Record<string, () => void> = {};
  const form = { hidden: true, querySelectorAll: () => levels, addEventListener: (event: string, fn: () => void) => (listeners[event] = fn) };
  const byId: Record<string, unknown> = { filters: form, area, disagree, shown };
  const document = { getElementById: (id: string) => byId[id], querySelectorAll: (selector: string) => (selector === "tr.row" ? rowEls : heads) };
  new Function("document", MATRIX_SCRIPT)(document);
  expect(form.hidden).toBe(false);
  return {
    run: (change) => {
      for (const l of levels) l.checked = change.levels?.[l.value] ?? true;
      area.value = change.area ?? "";
      disagree.checked = change.disagree ?? false;
      listeners.change?.();
      return rowEls.map((r) => !r.hidden);
    },
    shown: () => shown.textContent,
  };
}

describe("the matrix page's filters (its one script, run on a stand-in DOM)", () => {
  const dom = fakeDom([
    { level: "MUST", area: "provider/transport", disagree: "1" },
    { level: "SHOULD", area: "provider/transport", disagree: "0" },
    { level: "MUST", area: "provider/invoke", disagree: "0" },
  ]);

  it("shows every row at first, and keeps the rows of the ticked levels, the chosen area, or only the disagreeing ones", () => {
    expect(dom.run({})).toEqual([true, true, true]);
    expect(dom.shown()).toBe("3 of 3 rows shown");
    expect(dom.run({ levels: { SHOULD: false } })).toEqual([true, false, true]);
    expect(dom.run({ area: "provider/invoke" })).toEqual([false, false, true]);
    expect(dom.run({ disagree: true })).toEqual([true, false, false]);
    expect(dom.shown()).toBe("1 of 3 rows shown");
  });
});

describe("matrix.md", () => {
  const markdown = renderMatrixMarkdown(sample());
  const expected = new URL("matrix-sample.md", FIXTURES);

  it("is stable: the same reports give the same text as the saved sample (UPDATE_MATRIX_SAMPLE=1 rewrites it)", () => {
    if (process.env.UPDATE_MATRIX_SAMPLE === "1") writeFileSync(expected, markdown);
    expect(renderMatrixMarkdown(sample())).toBe(markdown);
    expect(markdown).toBe(readFileSync(expected, "utf8"));
  });

  it("says what each symbol means, and keeps hostile names inside their table cell", () => {
    for (const symbol of ["✅ pass", "❌ fail", "⚠️ fail of a level", "🟡 expected failure", "⏭️ skipped", "➖ not applicable", "🚫 no report"]) expect(markdown).toContain(symbol);
    expect(markdown).not.toContain("<script>");
    expect(markdown).not.toContain("<img");
    // Every row of a table has as many cells as its header.
    const lines = markdown.split("\n");
    for (const [i, line] of lines.entries()) {
      if (!line.startsWith("| ") || lines[i - 1]?.startsWith("|")) continue;
      const width = line.split(/(?<!\\)\|/).length;
      for (let j = i + 1; lines[j]?.startsWith("|"); j++) expect(lines[j]?.split(/(?<!\\)\|/).length, lines[j]).toBe(width);
    }
  });

  it("lists exactly the disagreeing clauses in its disagreement table", () => {
    const section = sample().sections[0];
    const block = markdown.slice(markdown.indexOf("Clauses where the implementations disagree"), markdown.indexOf("<details>"));
    const ids = [...block.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]);
    expect(ids).toEqual(section?.rows.filter((r) => r.disagree).map((r) => r.id));
  });
});

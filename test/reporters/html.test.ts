import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import { sourceLabel, sourceUrl } from "../../src/core/clauses/sources.js";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, Finding, RunReport, Summary } from "../../src/core/report/types.js";
import { renderHtml } from "../../src/reporters/html.js";
import { escapeAttr, escapeLines, escapeText } from "../../src/reporters/html-escape.js";
import { HTML_SCRIPT } from "../../src/reporters/html-script.js";
import { HTML_STYLE } from "../../src/reporters/html-style.js";
import { clauseAnchor } from "../../src/reporters/links.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;

const emptyLevel = { passed: 0, failed: 0, warnings: 0, expectedFailures: 0, flaky: 0, skipped: 0, notApplicable: 0 };

/** A small hand-made report (its summary says nothing was judged unless given one). */
function minimal(clauses: ClauseResult[] = [], summary: Partial<Summary> = {}): RunReport {
  return {
    reportVersion: 1,
    tool: { name: "awp-conformance", version: "0.0.0-test" },
    protocol: "provider",
    candidate: { argv: ["/bin/provider", "--flag", "two words"] },
    startedAt: "2026-01-01T00:00:00.000Z",
    endedAt: "2026-01-01T00:01:05.000Z",
    options: {},
    selection: { clause: [], skip: [] },
    summary: {
      total: clauses.length,
      passed: 0,
      failed: 0,
      skipped: 0,
      notApplicable: 0,
      deselected: 0,
      byLevel: { MUST: { ...emptyLevel }, SHOULD: { ...emptyLevel }, MAY: { ...emptyLevel } },
      warnings: 0,
      expectedFailures: 0,
      flaky: 0,
      incomplete: [],
      stale: [],
      level: "must",
      conformant: false,
      verdict: "nothing-judged",
      ...summary,
    },
    clauses,
    notes: [],
  };
}

const fuzzFinding: Finding = {
  clause: "provider/envelope/status-value",
  message: "status is \"maybe\"",
  expected: "\"ok\" or \"error\"",
  seen: "\"maybe\"",
  reproduce: "awp-conformance replay --seed 42 ./provider",
  foundBy: "fuzz",
  wire: [
    { t: 0, stream: "stdin", text: "{\"method\":\"describe\"}" },
    { t: 12.34, stream: "stdout", text: "{\"status\":\"maybe\"}\n", highlight: true },
    { t: 13, stream: "stderr", text: "x".repeat(40), truncated: true },
  ],
};

const kinds: ClauseResult[] = [
  { id: "provider/envelope/status-value", level: "MUST", title: "status is ok or error", status: "fail", judged: 3, findings: [fuzzFinding], expectation: "flaky" },
  { id: "provider/describe/admissible-operation", level: "SHOULD", title: "admissible", status: "fail", judged: 1, findings: [{ clause: "provider/describe/admissible-operation", message: "none admissible" }] },
  { id: "provider/validate-config/rejects-invalid-config", level: "MUST", title: "rejects invalid", status: "skip", reason: "no invalid configurations were given", judged: 0, findings: [] },
  { id: "provider/invoke/block-text", level: "MUST", title: "block text", status: "not-applicable", reason: "no block was ever requested", judged: 0, findings: [] },
  { id: "provider/made-up/clause", level: "MAY", title: "not in the catalogue", status: "pass", judged: 2, findings: [] },
];

// One clause of every kind the page knows, judged by the kit's own summary (its skipped MUST clause makes it incomplete).
const SAMPLES = {
  provider: load("provider-sample"),
  agent: load("agent-cli-sample"),
  incomplete: load("provider-incomplete-sample"),
  minimal: minimal(kinds, summarize(kinds, 0)),
};
const render = (report: RunReport, docsUrl?: string): string => renderHtml(report, { color: false, ...(docsUrl !== undefined ? { docsUrl } : {}) });
const kindOf = (c: ClauseResult): string =>
  c.status === "fail" ? (c.expectation === "expected-failure" ? "expected" : c.expectation === "flaky" ? "flaky" : "fail") : c.status === "not-applicable" ? "na" : c.status;
const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe.each(Object.entries(SAMPLES))("renderHtml (%s)", (_name, report) => {
  const html = render(report);

  it("is one self-contained page: one script (the kit's), no external resource", () => {
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).toContain(`<script>${HTML_SCRIPT}</script>`);
    expect(html.match(/<style/gi)).toHaveLength(1);
    expect(html).toContain(`<style>${HTML_STYLE}</style>`);
    // Tags only: candidate text is escaped, so "src=" may well appear in it as text.
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc\s*=/i);
    expect(html).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/url\(/i);
    expect(html).not.toMatch(/@import/i);
    // Links only go somewhere in the page, or to a clause's public source on GitHub (a link, not a resource).
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href.startsWith("#") || href.startsWith("https://github.com/"), href).toBe(true);
  });

  it("pins its style and script by hash in a strict Content-Security-Policy", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${sha256(HTML_SCRIPT)}`);
    expect(csp).toContain(`style-src ${sha256(HTML_STYLE)}`);
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'none'");
    expect(csp).not.toContain("unsafe");
    expect(html.indexOf("Content-Security-Policy")).toBeLessThan(html.indexOf("<style>"));
  });

  it("holds no raw control, line-separator or bidi character", () => {
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(html.match(/<pre/g)?.length ?? 0).toBe(html.match(/<\/pre>/g)?.length ?? 0);
  });

  it("shows every clause with its status, level, anchor and title; failures open", () => {
    for (const clause of report.clauses) {
      const kind = kindOf(clause);
      const open = kind === "fail" ? " open" : "";
      expect(html).toContain(`<details class="clause k-${kind}" id="${clauseAnchor(clause.id)}" data-kind="${kind}" data-level="${clause.level}"${open}>`);
      const summary = new RegExp(`<summary><span class="badge k-${kind}">[A-Z/]+</span> <span class="lvl">${clause.level}</span> <code class="cid">${clause.id}</code> <span class="title bidi">([^<]*)</span>`);
      expect(summary.exec(html)?.[1]).toBe(escapeText(clause.title));
      if (clause.reason !== undefined) expect(html).toContain(escapeText(clause.reason));
    }
  });

  it("shows each clause's text and source from the catalogue, linked to its public place", () => {
    const catalogue = new Map((report.protocol === "policy-test" ? [] : loadCatalogue(report.protocol)).map((c) => [c.id, c]));
    for (const clause of report.clauses) {
      const known = catalogue.get(clause.id);
      if (known === undefined) {
        expect(html).toContain("not in this kit's catalogue");
        continue;
      }
      expect(html).toContain(`<p class="clause-text">${escapeText(known.text)}</p>`);
      expect(html).toContain(`Source: <a class="src" href="${escapeAttr(sourceUrl(known.source) ?? "")}">${escapeText(sourceLabel(known.source))}</a>`);
      // No docs link without --docs-url: the kit's docs/clauses.md is not where the report is opened.
      expect(html).not.toContain(`href="docs/clauses.md#${clauseAnchor(clause.id)}"`);
    }
  });

  it("shows every wire log entry in order, marking highlighted and truncated ones", () => {
    const rows = [...html.matchAll(/<tr class="s-[a-z]+( hl)?"[^>]*>([\s\S]*?)<\/tr>/g)];
    const entries = report.clauses.flatMap((c) => c.findings.flatMap((f) => f.wire ?? []));
    expect(rows).toHaveLength(entries.length);
    entries.forEach((entry, i) => {
      const [, hl, cells] = rows[i] ?? [];
      expect(cells).toContain(escapeLines(entry.text));
      expect(hl === " hl").toBe(entry.highlight === true);
      expect(cells?.includes("▶ finding")).toBe(entry.highlight === true);
      expect(cells?.includes("truncated by the kit")).toBe(entry.truncated === true);
    });
  });

  it("shows each finding's message, expected/seen, reproduce command and evidence", () => {
    for (const finding of report.clauses.flatMap((c) => c.findings)) {
      expect(html).toContain(escapeText(finding.message));
      if (finding.expected !== undefined) expect(html).toContain(`<dt>expected</dt><dd><pre>${escapeText(finding.expected)}</pre></dd>`);
      if (finding.seen !== undefined) expect(html).toContain(`<dt>seen</dt><dd><pre>${escapeText(finding.seen)}</pre></dd>`);
      if (finding.reproduce !== undefined) expect(html).toContain(`<pre class="cmd"><code>${escapeText(finding.reproduce)}</code></pre>`);
      for (const e of finding.evidence ?? []) expect(html).toContain(`<pre>${escapeText(e.excerpt)}</pre>`);
    }
  });

  it("puts the summary's counts in the header", () => {
    const s = report.summary;
    const buckets = ["passed", "failed", "warnings", "expectedFailures", "flaky", "skipped", "notApplicable"] as const;
    const counts: Record<string, number> = { total: s.total, deselected: s.deselected, stale: s.stale.length };
    for (const key of buckets) counts[key] = s[key];
    for (const [key, value] of Object.entries(counts)) expect(html).toContain(`<b data-count="${key}">${value}</b>`);
    // The seven buckets shown add up to the total shown.
    const shown = (key: string): number => Number(new RegExp(`<b data-count="${key}">(\\d+)</b>`).exec(html)?.[1]);
    expect(buckets.reduce((n, key) => n + shown(key), 0)).toBe(shown("total"));
    for (const level of ["MUST", "SHOULD", "MAY"] as const) {
      for (const key of buckets) {
        expect(html).toContain(`<td data-count="${level}.${key}">${s.byLevel[level][key]}</td>`);
      }
    }
    const verdict = { conformant: "Conformant", "not-conformant": "Not conformant", incomplete: "Incomplete", "nothing-judged": "Nothing judged" }[s.verdict];
    expect(html).toContain(`data-verdict="${s.verdict}">${verdict}<small>`);
    expect(html).toContain(`<title>awp-conformance · ${report.protocol}`);
  });

  it("has filters for every status and level, hidden until the script shows them", () => {
    expect(html).toContain('<form class="filters" id="filters" hidden>');
    for (const kind of ["fail", "expected", "flaky", "pass", "skip", "na"]) expect(html).toContain(`name="kind" value="${kind}" checked>`);
    for (const level of ["MUST", "SHOULD", "MAY"]) expect(html).toContain(`name="level" value="${level}" checked>`);
  });
});

describe("renderHtml with hostile candidate output", () => {
  const report = SAMPLES.provider;
  const html = render(report);

  it("shows markup, ANSI escapes and control characters only in escaped form", () => {
    for (const raw of ["<script>alert", "<img", "</pre><img", "onerror=alert(1)>", "<b>provider</b>", "\u001b", "\u0000", "\u0007", "'pwned'"]) {
      expect(html).not.toContain(raw);
    }
    expect(html).toContain("&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;");
    expect(html).toContain('<span class="esc">\\u001b</span>[31mred<span class="esc">\\u001b</span>[0m');
    expect(html).toContain('<span class="esc">\\u0000</span><span class="esc">\\u0007</span>');
    expect(html).toContain("&lt;/pre&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("]]&gt; &amp; &quot;q&quot; &#39;a&#39;");
    expect(html).toContain("&#39;/opt/adapters/&lt;b&gt;provider&lt;/b&gt;&#39; --fault log-on-stdout");
  });

  it("shows the stale expected-failure entries in their own box", () => {
    expect(report.summary.stale.length).toBeGreaterThan(0);
    const box = /<section class="box stale" id="stale">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    expect(box).toContain("these fail the run");
    for (const entry of report.summary.stale) expect(box).toContain(`<li>${escapeText(entry)}</li>`);
    expect(render(SAMPLES.agent)).not.toContain('class="box stale"');
  });

  it("keeps findings past the first three behind a toggle, all in the file", () => {
    const clause = report.clauses.find((c) => c.id === "provider/transport/diagnostics-on-stderr");
    expect(clause?.findings.length).toBe(14);
    expect(html).toContain('<details class="more"><summary>11 more findings</summary>');
    expect(html).toContain("<h3><span class=\"muted\">#14</span>");
    expect(render(report, undefined).length).toBe(html.length);
    expect(renderHtml(report, { color: false, maxFindings: 20 })).not.toContain("more findings");
  });
});

describe("renderHtml of an incomplete run", () => {
  const report = SAMPLES.incomplete;
  const html = render(report);
  const groups = report.summary.incomplete;
  const n = groups.reduce((sum, g) => sum + g.clauses.length, 0);

  it("has a grey verdict, never green, and says how many MUST clauses could not be judged", () => {
    expect(html).toContain(`<div class="verdict v-incomplete" role="status" data-verdict="incomplete">Incomplete<small>${n} MUST clauses could not be judged: not a pass until they are</small></div>`);
    expect(HTML_STYLE).toContain(".verdict.v-incomplete { color: var(--grey); background: var(--grey-bg); }");
    expect(html).toContain("<title>awp-conformance · provider · Incomplete</title>");
  });

  it("puts a banner right under the verdict: each reason once, with links to its clauses", () => {
    const at = html.indexOf('<section class="box incomplete" id="incomplete">');
    expect(at).toBe(html.indexOf("</div>", html.indexOf('class="verdict')) + "</div>\n".length);
    const box = html.slice(at, html.indexOf("</section>", at));
    expect(box).toContain(`<h2>Incomplete — ${n} MUST clauses could not be judged. To make the run complete:</h2>`);
    for (const g of groups) {
      expect(box.split(`<span class="bidi">${escapeText(g.reason)}</span>`)).toHaveLength(2);
      for (const id of g.clauses) expect(box).toContain(`<a href="#${clauseAnchor(id)}"><code>${id}</code></a>`);
    }
  });

  it("shows the box as a side note when the run failed anyway, and not at all when it is complete", () => {
    const agentHtml = render(SAMPLES.agent);
    expect(agentHtml).toContain("<h2>Also incomplete — 7 MUST clauses could not be judged:</h2>");
    expect(render(SAMPLES.minimal)).toContain('data-verdict="incomplete"');
    const complete = kinds.filter((c) => c.status !== "skip");
    expect(render(minimal(complete, summarize(complete, 0)))).not.toContain('class="box incomplete"');
  });
});

describe("renderHtml of a hand-made report", () => {
  const html = render(SAMPLES.minimal);

  it("marks fuzzing findings, flaky and warning failures, skip and N/A reasons", () => {
    expect(html).toContain('<span class="tag fuzz">found by fuzzing</span>');
    expect(html).toContain("Listed as flaky");
    expect(html).toContain('<span class="tag warning">warning</span>');
    expect(html).toContain("SHOULD failures do not count at --level must");
    expect(html).toContain("<strong>Skipped:</strong> no invalid configurations were given");
    expect(html).toContain("<strong>Not applicable:</strong> no block was ever requested");
    expect(html).toContain('<td class="t">12.3</td>');
    expect(html).toContain("not in this kit's catalogue");
    expect(html).toContain("<code class=\"bidi\">/bin/provider --flag &#39;two words&#39;</code>");
    expect(html).toContain("(1 min 5 s)");
  });

  it("says nothing was judged, and renders an empty run", () => {
    const empty = render(minimal());
    expect(empty).toContain('data-verdict="nothing-judged">Nothing judged');
    expect(empty).toContain("No clause was selected in this run.");
    expect(empty.match(/<script/gi)).toHaveLength(1);
  });

  it("links to the clause docs at the given URL, besides the public sources", () => {
    const page = render(SAMPLES.minimal, "https://example.org/docs/clauses.md");
    const docs = [...page.matchAll(/class="docs" href="([^"]*)"/g)].map((m) => m[1] ?? "");
    expect(docs.sort()).toEqual(kinds.map((k) => `https://example.org/docs/clauses.md#${clauseAnchor(k.id)}`).sort());
    const external = [...page.matchAll(/href="(http[^"]*)"/g)].map((m) => m[1] ?? "");
    for (const href of external) expect(href.startsWith("https://example.org/docs/clauses.md#provider-") || href.startsWith("https://github.com/"), href).toBe(true);
    expect(render(SAMPLES.minimal, "javascript:alert(1)//")).not.toContain("javascript:");
  });

  it("never echoes an unknown status, level or stream into markup", () => {
    const hostile = '"><img src=x onerror=alert(1)>';
    const weird = {
      ...kinds[0],
      level: hostile,
      status: hostile,
      findings: [{ clause: "x", message: "m", wire: [{ t: hostile, stream: hostile, text: "t" }] }],
    } as unknown as ClauseResult;
    const page = render(minimal([weird]));
    expect(page).not.toContain("<img");
    expect(page).toContain('data-kind="na" data-level="other"');
    expect(page).toContain('<tr class="s-other">');
  });
});

describe("the order of the clause rows", () => {
  const rows = (page: string): { id: string; kind: string }[] => [...page.matchAll(/<details class="clause k-(\w+)" id="[^"]*" data-kind="\w+"[^>]*>\n<summary>.*?<code class="cid">([^<]*)<\/code>/g)].map((m) => ({ kind: m[1] ?? "", id: m[2] ?? "" }));

  it("puts the failing clause of the provider sample first, above every PASS row, and keeps every row", () => {
    const page = render(SAMPLES.provider);
    const order = rows(page);
    expect(order).toHaveLength(SAMPLES.provider.clauses.length);
    const failing = SAMPLES.provider.clauses.find((c) => c.status === "fail" && c.expectation === undefined);
    expect(order[0]).toEqual({ id: failing?.id, kind: "fail" });
    // Within each area section, and across the sections' first rows, no row needs attention more than one above it.
    const RANK: Record<string, number> = { fail: 0, expected: 2, flaky: 2, skip: 3, pass: 4, na: 6 };
    const sections = [...page.matchAll(/<section class="area"[^>]*>([\s\S]*?)<\/section>/g)].map((m) => rows(m[1] ?? "").map((r) => RANK[r.kind] ?? 9));
    expect(sections.length).toBeGreaterThan(1);
    for (const ranks of sections) expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const firsts = sections.map((ranks) => ranks[0] ?? 9);
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    // In the report's (catalogue) order, PASS rows came first.
    expect(SAMPLES.provider.clauses[0]?.status).toBe("pass");
    const agentFailing = SAMPLES.agent.clauses.findIndex((c) => c.status === "fail");
    expect(agentFailing).toBeGreaterThan(10);
    expect(rows(render(SAMPLES.agent))[0]).toEqual({ id: SAMPLES.agent.clauses[agentFailing]?.id, kind: "fail" });
  });

  it("orders failures, warnings, expected and flaky failures, skips of counted levels, then passes and not-applicable clauses", () => {
    const order = rows(render(SAMPLES.minimal)).map((r) => r.id);
    expect(order).toEqual([
      "provider/describe/admissible-operation",
      "provider/envelope/status-value",
      "provider/validate-config/rejects-invalid-config",
      "provider/made-up/clause",
      "provider/invoke/block-text",
    ]);
  });
});

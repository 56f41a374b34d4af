/**
 * A failure that rests only on a bound the kit chose says so where the verdict is read: the
 * clause line and the summary of the console (counted apart), JUnit, the badge's tooltip,
 * HTML and Markdown, each with the option that moves the bound and (beside the finding)
 * what the candidate was doing when it ran out.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, KitBound, RunReport } from "../../src/core/report/types.js";
import { renderBadgeJson, renderBadgeSvg } from "../../src/reporters/badge.js";
import { renderConsole } from "../../src/reporters/console.js";
import { renderHtml } from "../../src/reporters/html.js";
import { renderJunit } from "../../src/reporters/junit.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";

const sample = JSON.parse(readFileSync(new URL("../fixtures/reports/agent-cli-sample.json", import.meta.url), "utf8")) as RunReport;
const OPTIONS = { color: false };
const STALL = "agent-cli/failures/model-stall";
const BOUND: KitBound = { option: "--stall-timeout", value: 180_000, unit: "ms", activity: "still retrying: 14 model requests" };

/** The sample with model-stall failed at the kit's --stall-timeout (besides its own result-text failure). */
function atBound(): RunReport {
  const clauses = sample.clauses.map((c): ClauseResult =>
    c.id === STALL
      ? { ...c, status: "fail", reason: undefined, judged: 1, findings: [{ clause: STALL, message: "after a stalled stream: no terminal event within 180.0 s (--stall-timeout, the kit's bound); the kit stopped waiting", seen: "still running after 180.0 s, 14 model requests", kitBound: BOUND, evidence: [{ stream: "stdin", excerpt: "{\"type\":\"user\"}" }] }] }
      : c,
  );
  return { ...sample, clauses, summary: summarize(clauses, 0) };
}

describe("a failure at a kit-chosen bound", () => {
  const report = atBound();

  it("is counted apart in the summary, and still fails the run", () => {
    expect(report.summary).toMatchObject({ failed: 2, atKitBound: 1, verdict: "not-conformant" });
    expect(sample.summary.atKitBound ?? 0).toBe(0);
  });

  it("console: on the clause line, beside the finding with what the CLI was doing, and in the summary line", () => {
    const out = renderConsole(report, OPTIONS);
    expect(out).toContain(`FAIL  MUST   ${STALL}  a stalled model stream ends the turn`);
    expect(out).toMatch(/agent-cli\/failures\/model-stall .* \[at a kit-chosen bound: --stall-timeout 180000 ms\]\n/);
    expect(out).toContain("        bound:    --stall-timeout 180000 ms, the kit's choice (not the contract's): raise it to see whether the candidate gets there; when it ran out the candidate was still retrying: 14 model requests");
    expect(out).toMatch(/45 clauses: \d+ passed, 2 failed \(1 failure at a kit-chosen bound: --stall-timeout\), /);
    // The other failure rests on no bound: its line says nothing of one.
    expect(out).not.toMatch(/agent-cli\/fidelity\/result-text .*kit-chosen/);
  });

  it("JUnit: in the failure's message and body, and as a property of the run", () => {
    const xml = renderJunit(report, OPTIONS);
    expect(xml).toContain('message="at a kit-chosen bound: --stall-timeout 180000 ms: after a stalled stream: no terminal event within 180.0 s');
    expect(xml).toContain("   bound:    --stall-timeout 180000 ms, the kit's choice (not the contract's): raise it to see whether the candidate gets there; when it ran out the candidate was still retrying: 14 model requests");
    expect(xml).toMatch(/<property name="atKitBound" value="1 failure at a kit-chosen bound: --stall-timeout"\/>/);
  });

  it("badge: the tooltip names it with the option, built from the kit's own option names and numbers only", () => {
    const svg = renderBadgeSvg(report);
    expect(svg).toMatch(/<title>AWP agent CLI \(stream-json\): \d+ of \d+ MUST \(1 failure at a kit-chosen bound: --stall-timeout 180000 ms; raise it to see whether the candidate gets there\)<\/title>/);
    const forged = atBound();
    const finding = forged.clauses.find((c) => c.id === STALL)?.findings[0];
    if (finding?.kitBound !== undefined) finding.kitBound = { ...finding.kitBound, option: "<script>" };
    expect(renderBadgeSvg(forged)).not.toContain("<script>");
    expect(renderBadgeSvg(sample)).not.toContain("kit-chosen");
    // The shields endpoint has no tooltip: its message stays the numbers.
    expect(JSON.parse(renderBadgeJson(report)).message).toMatch(/^\d+ of \d+ MUST$/);
  });

  it("HTML and Markdown: in the verdict, the clause and the failures table", () => {
    const html = renderHtml(report, OPTIONS);
    expect(html).toContain("2 counted failures (1 failure at a kit-chosen bound: --stall-timeout)");
    expect(html).toContain('<span class="tag warning">at a kit-chosen bound: --stall-timeout 180000 ms</span>');
    expect(html).toContain("<dt>bound</dt>");
    const md = renderMarkdown(report, OPTIONS);
    expect(md).toContain("- ⏱️ 1 failure at a kit-chosen bound: --stall-timeout, not the contract's");
    expect(md).toContain("| ⏱️ at a kit-chosen bound: --stall-timeout 180000 ms: after a stalled stream");
  });
});

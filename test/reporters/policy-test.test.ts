import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, RunReport } from "../../src/core/report/types.js";
import { renderConsole } from "../../src/reporters/console.js";
import { renderHtml } from "../../src/reporters/html.js";
import { renderJunit } from "../../src/reporters/junit.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";
import { renderTap } from "../../src/reporters/tap.js";

/** A policy-test report (awp-conformance policy-test) is about the user's cases: every format titles and counts it so. */

const sample = JSON.parse(readFileSync(new URL("../fixtures/reports/provider-sample.json", import.meta.url), "utf8")) as RunReport;

function entry(name: string, status: ClauseResult["status"], extra: Partial<ClauseResult> = {}): ClauseResult {
  const id = `policy-test/tests/${name}`;
  return {
    id, level: "MUST", title: name, status, judged: status === "pass" || status === "fail" ? 1 : 0,
    findings: status === "fail" ? [{ clause: id, message: "expected block, the Provider answered allow", requestId: "case-1" }] : [],
    ...(status === "skip" ? { reason: "the Provider does not declare operation redact: the case cannot be sent" } : {}),
    ...extra,
  };
}

const clauses = [entry("blocks bash", "fail"), entry("allows read", "pass"), entry("redacts secrets", "skip"), entry("observes edits", "pass")];
const policy: RunReport = { ...sample, protocol: "policy-test", notes: [], selection: { clause: [], skip: [] }, options: { caseFiles: ["tests.yaml"] }, clauses, summary: summarize(clauses, 0) };
const OPTIONS = { color: false };
const CLAUSE = /\bclauses?\b/i;

describe("a policy-test report", () => {
  it("is titled a policy test report in HTML, and counts cases", () => {
    const html = renderHtml(policy, OPTIONS);
    expect(html).toContain("<h1>Policy test report · policy-test</h1>");
    expect(html).toMatch(/<title>awp-conformance · Policy test report · policy-test · /);
    expect(html).toContain("4 cases · 1 fail · 2 pass · 1 skip");
    expect(html).toContain("A case of your policy-test files");
    expect(html).not.toContain("Conformance report");
    // Its selection is --case patterns.
    expect(renderHtml({ ...policy, selection: { clause: ["blocks*"], skip: [] } }, OPTIONS)).toContain("<code>--case blocks*</code>");
  });

  it("speaks of cases in the console, the Markdown, the JUnit and the TAP report, never of clauses", () => {
    const outputs = {
      console: renderConsole(policy, { color: false, verbose: true }),
      markdown: renderMarkdown(policy, OPTIONS),
      junit: renderJunit(policy, OPTIONS),
      tap: renderTap(policy, OPTIONS),
    };
    // Keys of the machine formats (JUnit property names, TAP's YAML keys) are a contract and stay as they are.
    const words = (text: string): string => text.replace(/<property name="[^"]*"/g, "").replace(/^\s*(- )?clauses?:/gm, "");
    for (const [name, text] of Object.entries(outputs)) expect(words(text), name).not.toMatch(CLAUSE);
    expect(outputs.console).toContain("4 cases: 2 passed, 1 failed, 1 skipped — not conformant (1 case failed)");
    expect(outputs.console).toContain("(1 case)");
    expect(outputs.markdown.split("\n")[0]).toBe("## ❌ Policy tests fail: policy-test");
    expect(outputs.markdown).toContain("MUST cases count");
    expect(outputs.markdown).toContain("| | Level | Case | Title |");
    expect(outputs.junit).toContain('<testcase classname="policy-test/tests" name="policy-test/tests/blocks bash" time=');
  });
});

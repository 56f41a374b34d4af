import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitReport } from "../../src/cli/output.js";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, RunReport } from "../../src/core/report/types.js";
import { summaryLine } from "../../src/reporters/console.js";
import { escapeData, escapeProperty, renderGithub } from "../../src/reporters/github.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const incomplete = load("provider-incomplete-sample");
const OPTIONS = { color: false };

const lines = (text: string): string[] => text.trimEnd().split("\n");

function withClauses(report: RunReport, clauses: ClauseResult[]): RunReport {
  return { ...report, clauses, summary: summarize(clauses, 0) };
}

describe("the github reporter", () => {
  it("annotates each failed MUST clause with an ::error titled by its id, its first finding the message; expected failures get none", () => {
    const out = lines(renderGithub(provider, OPTIONS));
    const failed = provider.clauses.find((c) => c.status === "fail" && c.expectation === undefined);
    const more = (failed?.findings.length ?? 0) - 1;
    expect(out[0]).toBe(`::error title=${failed?.id}::${failed?.findings[0]?.message} (and ${more} more findings)`);
    expect(out.filter((l) => l.startsWith("::error title=provider/"))).toHaveLength(1);
    expect(out.join("\n")).not.toContain("provider/envelope/echoes-request-id");
    // The stale expectation fails the run: an error of its own; the summary line is a notice.
    expect(out).toContain(`::error title=awp-conformance%3A provider%3A stale expectation::${provider.summary.stale[0]}`);
    expect(out.at(-1)).toBe(`::notice title=awp-conformance%3A provider::${summaryLine(provider)}`);
  });

  it("annotates a SHOULD failure (a warning at --level must) with ::warning", () => {
    const clauses: ClauseResult[] = [
      { id: "provider/a/w", level: "SHOULD", title: "w", status: "fail", judged: 1, findings: [{ clause: "provider/a/w", message: "first" }, { clause: "provider/a/w", message: "second" }] },
      { id: "provider/a/p", level: "MUST", title: "p", status: "pass", judged: 1, findings: [] },
    ];
    expect(lines(renderGithub(withClauses(provider, clauses), OPTIONS))[0]).toBe("::warning title=provider/a/w::first (and 1 more finding)");
  });

  it("escapes %, CR and LF in the message, and : and , in properties, so a finding stays one command", () => {
    expect(escapeData("50% done\r\nnext")).toBe("50%25 done%0D%0Anext");
    expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
    const hostile = "two\n::error title=forged::lines 100%\u001b[31m";
    const clauses: ClauseResult[] = [{ id: "provider/a/f", level: "MUST", title: "f", status: "fail", judged: 1, findings: [{ clause: "provider/a/f", message: hostile }] }];
    const out = lines(renderGithub(withClauses(provider, clauses), OPTIONS));
    expect(out[0]).toBe("::error title=provider/a/f::two%0A::error title=forged::lines 100%25\\u001b[31m");
    expect(out.filter((l) => l.startsWith("::error"))).toHaveLength(1);
  });

  it("says why an incomplete run fails, and names a policy test's case file", () => {
    const out = renderGithub(incomplete, OPTIONS);
    expect(out).toMatch(/^::error title=awp-conformance%3A provider%3A incomplete::4 MUST clauses could not be judged; the run cannot pass until they are:%0A- /m);
    const policy: RunReport = {
      ...withClauses(provider, [{ id: "policy-test/tests/blocks bash", level: "MUST", title: "blocks bash", status: "fail", judged: 1, findings: [{ clause: "policy-test/tests/blocks bash", message: "expected block, got allow" }] }]),
      protocol: "policy-test",
      options: { caseFiles: ["ci/other.yaml", "ci/tests.yaml"] },
    };
    expect(lines(renderGithub(policy, OPTIONS))[0]).toBe("::error title=policy-test/tests/blocks bash,file=ci/tests.yaml::expected block, got allow");
  });
});

describe("--reporter github and $GITHUB_STEP_SUMMARY", () => {
  const dir = mkdtempSync(join(tmpdir(), "awp-github-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints the annotations and appends the Markdown summary to the step summary file, keeping what was there", async () => {
    const summary = join(dir, "step-summary.md");
    writeFileSync(summary, "earlier step\n");
    let printed = "";
    const written = await emitReport(provider, { reporters: ["github"], outDir: join(dir, "out"), color: false, env: { GITHUB_STEP_SUMMARY: summary }, print: (text) => { printed += text; } });
    expect(written).toEqual([]);
    expect(printed).toBe(renderGithub(provider, OPTIONS));
    expect(readFileSync(summary, "utf8")).toBe(`earlier step\n${renderMarkdown(provider, OPTIONS)}\n`);
  });

  it("writes no summary anywhere when GITHUB_STEP_SUMMARY is unset", async () => {
    let printed = "";
    await emitReport(provider, { reporters: ["github"], outDir: join(dir, "none"), color: false, env: {}, print: (text) => { printed += text; } });
    expect(printed).toContain("::error ");
    expect(existsSync(join(dir, "none"))).toBe(false);
  });
});

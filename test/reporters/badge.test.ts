import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, CountedLevel, RunReport } from "../../src/core/report/types.js";
import { badgeContent, renderBadgeJson, renderBadgeSvg } from "../../src/reporters/badge.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const agent = load("agent-cli-sample");
const OPTIONS = { color: false };
const HOSTILE = "<script>alert(1)</script>\u001b[31m & ]]> \u0000";

function resummarized(report: RunReport, clauses: ClauseResult[], level: CountedLevel = "must", stale: string[] = []): RunReport {
  return { ...report, clauses, summary: summarize(clauses, 0, { level, stale }) };
}

/** Checks that every tag is closed in order (the SVG is XML; no parser is needed for badge-maker's output). */
function wellFormed(svg: string): boolean {
  const stack: string[] = [];
  for (const [tag] of svg.matchAll(/<[^>]+>/g)) {
    if (tag.startsWith("<?") || tag.startsWith("<!--") || tag.endsWith("/>")) continue;
    const name = /^<\/?([A-Za-z][\w:-]*)/.exec(tag)?.[1];
    if (name === undefined) return false;
    if (tag.startsWith("</")) {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  return stack.length === 0;
}

function json(report: RunReport): Record<string, unknown> {
  return JSON.parse(renderBadgeJson(report, OPTIONS)) as Record<string, unknown>;
}

describe("badge on the sample reports", () => {
  it("provider: MUST clauses passed of judged, red", () => {
    const must = provider.summary.byLevel.MUST;
    expect(badgeContent(provider)).toEqual({ label: "awp-conformance", message: `${must.passed} of ${must.passed + must.failed} MUST`, color: "red" });
    expect(badgeContent(provider).message).toBe("36 of 38 MUST");
  });

  it("agent-cli: the mode follows the numbers", () => {
    expect(badgeContent(agent)).toEqual({ label: "awp-conformance", message: "28 of 29 MUST (stream-json)", color: "red" });
  });

  for (const report of [provider, agent]) {
    it(`${report.protocol}: the SVG is a well-formed badge with the message`, () => {
      const svg = renderBadgeSvg(report, OPTIONS);
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(wellFormed(svg)).toBe(true);
      expect(svg).toContain(badgeContent(report).message);
      expect(svg).toContain("awp-conformance");
    });

    it(`${report.protocol}: the endpoint JSON has exactly the four shields.io keys`, () => {
      const badge = json(report);
      expect(Object.keys(badge)).toEqual(["schemaVersion", "label", "message", "color"]);
      expect(badge).toEqual({ schemaVersion: 1, ...badgeContent(report) });
      expect(renderBadgeJson(report, OPTIONS).endsWith("}\n")).toBe(true);
    });
  }
});

describe("badge verdicts", () => {
  it("conformant: green, with the mode for agent-cli", () => {
    const clauses = agent.clauses.filter((c) => c.status !== "fail");
    expect(badgeContent(resummarized(agent, clauses))).toEqual({ label: "awp-conformance", message: "conformant (stream-json)", color: "green" });
    const providerClauses = provider.clauses.filter((c) => c.status !== "fail");
    expect(badgeContent(resummarized(provider, providerClauses)).message).toBe("conformant");
  });

  it("conformant with warnings or expected failures: orange", () => {
    const warned = agent.clauses.map((c) => (c.status === "fail" ? { ...c, level: "SHOULD" as const } : c));
    expect(badgeContent(resummarized(agent, warned))).toMatchObject({ message: "conformant (stream-json)", color: "orange" });
    const expected = agent.clauses.map((c) => (c.status === "fail" ? { ...c, expectation: "expected-failure" as const } : c));
    expect(badgeContent(resummarized(agent, expected)).color).toBe("orange");
  });

  it("nothing judged: lightgrey", () => {
    const clauses = agent.clauses.map((c) => ({ ...c, status: "skip" as const, findings: [], reason: "not run" }));
    expect(badgeContent(resummarized(agent, clauses))).toEqual({ label: "awp-conformance", message: "not judged", color: "lightgrey" });
  });

  it("--level should counts MUST and SHOULD clauses", () => {
    const report = resummarized(provider, provider.clauses, "should");
    const s = report.summary.byLevel;
    expect(badgeContent(report).message).toBe(`${s.MUST.passed + s.SHOULD.passed} of ${s.MUST.passed + s.MUST.failed + s.SHOULD.passed + s.SHOULD.failed} MUST/SHOULD`);
  });

  it("a run failed only by stale expectations says so", () => {
    const clauses = provider.clauses.filter((c) => c.status !== "fail");
    expect(badgeContent(resummarized(provider, clauses, "must", ["x.txt:1: stale"]))).toMatchObject({ message: "stale expectations", color: "red" });
  });
});

describe("badge and hostile reports", () => {
  it("takes no text from the candidate or the report's strings", () => {
    const report: RunReport = {
      ...agent,
      mode: HOSTILE,
      tool: { name: HOSTILE, version: HOSTILE },
      candidate: { argv: [HOSTILE] },
      notes: [HOSTILE],
      clauses: agent.clauses.map((c) => ({ ...c, title: HOSTILE, findings: c.findings.map((f) => ({ ...f, message: HOSTILE })) })),
    };
    const svg = renderBadgeSvg(report, OPTIONS);
    const endpoint = renderBadgeJson(report, OPTIONS);
    for (const text of [svg, endpoint]) {
      expect(text).not.toContain("script");
      expect(text).not.toMatch(/[\u0000\u001b]/);
    }
    expect(badgeContent(report).message).toBe("28 of 29 MUST");
    expect(wellFormed(svg)).toBe(true);
  });

  it("survives a tampered summary (odd level, missing or negative counts)", () => {
    const summary = { ...agent.summary, level: "constructor", byLevel: { MUST: { passed: -3, failed: Number.NaN } } } as unknown as RunReport["summary"];
    const badge = badgeContent({ ...agent, summary });
    expect(badge).toMatchObject({ label: "awp-conformance", color: "red" });
    expect(badge.message).toMatch(/^[a-z0-9 ()/-]+$/i);
  });
});

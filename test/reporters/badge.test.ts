import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, CountedLevel, RunReport } from "../../src/core/report/types.js";
import { badgeContent, renderBadgeJson, renderBadgeSvg } from "../../src/reporters/badge.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const agent = load("agent-cli-sample");
const incomplete = load("provider-incomplete-sample");
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
    // Judged MUST clauses: passed, failed, and the expected failure (flaky ones would count too).
    expect(badgeContent(provider)).toEqual({ label: "aw-provider", message: `${must.passed} of ${must.passed + must.failed + must.expectedFailures + must.flaky} MUST`, color: "red" });
    expect(badgeContent(provider).message).toBe("36 of 38 MUST");
  });

  it("agent-cli: the label names the protocol and the mode", () => {
    expect(badgeContent(agent)).toEqual({ label: "AWP agent CLI (stream-json)", message: "28 of 29 MUST", color: "red" });
  });

  it("incomplete: grey, never green", () => {
    expect(badgeContent(incomplete)).toEqual({ label: "aw-provider", message: "incomplete", color: "lightgrey" });
    expect(json(incomplete)).toEqual({ schemaVersion: 1, label: "aw-provider", message: "incomplete", color: "lightgrey" });
    const svg = renderBadgeSvg(incomplete, OPTIONS);
    expect(wellFormed(svg)).toBe(true);
    expect(svg).toContain(">incomplete<");
    expect(svg).not.toMatch(/#4c1|#97ca00/i);
  });

  for (const report of [provider, agent, incomplete]) {
    it(`${report.protocol} (${report.summary.verdict}): the SVG is a well-formed badge with the message`, () => {
      const svg = renderBadgeSvg(report, OPTIONS);
      expect(svg.startsWith("<svg")).toBe(true);
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(wellFormed(svg)).toBe(true);
      expect(svg).toContain(badgeContent(report).message);
      expect(svg).toContain(badgeContent(report).label);
    });

    it(`${report.protocol} (${report.summary.verdict}): the endpoint JSON has exactly the four shields.io keys`, () => {
      const badge = json(report);
      expect(Object.keys(badge)).toEqual(["schemaVersion", "label", "message", "color"]);
      expect(badge).toEqual({ schemaVersion: 1, ...badgeContent(report) });
      expect(renderBadgeJson(report, OPTIONS).endsWith("}\n")).toBe(true);
    });
  }
});

describe("badge verdicts", () => {
  // The samples' skipped clauses are left out (as --skip would), or they would make the run incomplete.
  const judged = (report: RunReport): ClauseResult[] => report.clauses.filter((c) => c.status !== "skip");

  it("conformant: green, with the mode for agent-cli", () => {
    const clauses = judged(agent).filter((c) => c.status !== "fail");
    expect(badgeContent(resummarized(agent, clauses))).toEqual({ label: "AWP agent CLI (stream-json)", message: "conformant", color: "green" });
    const providerClauses = judged(provider).filter((c) => c.status !== "fail");
    expect(badgeContent(resummarized(provider, providerClauses)).message).toBe("conformant");
  });

  it("conformant with warnings or expected failures: orange", () => {
    const warned = judged(agent).map((c) => (c.status === "fail" ? { ...c, level: "SHOULD" as const } : c));
    expect(badgeContent(resummarized(agent, warned))).toMatchObject({ message: "conformant", color: "orange" });
    const expected = judged(agent).map((c) => (c.status === "fail" ? { ...c, expectation: "expected-failure" as const } : c));
    expect(badgeContent(resummarized(agent, expected)).color).toBe("orange");
  });

  it("incomplete: grey with the mode, whatever passed beside the skipped MUST clause", () => {
    const clauses = agent.clauses.filter((c) => c.status !== "fail");
    expect(badgeContent(resummarized(agent, clauses))).toEqual({ label: "AWP agent CLI (stream-json)", message: "incomplete", color: "lightgrey" });
    // A skipped SHOULD clause: conformant at --level must, incomplete at --level should.
    const should = judged(agent).filter((c) => c.status !== "fail").concat({ id: "agent-cli/x/y", level: "SHOULD", title: "y", status: "skip", reason: "r", judged: 0, findings: [] });
    expect(badgeContent(resummarized(agent, should, "must")).color).toBe("green");
    expect(badgeContent(resummarized(agent, should, "should"))).toMatchObject({ message: "incomplete", color: "lightgrey" });
  });

  it("nothing judged: lightgrey", () => {
    const clauses = agent.clauses.map((c) => ({ ...c, status: "not-applicable" as const, findings: [], reason: "never arose" }));
    expect(badgeContent(resummarized(agent, clauses))).toEqual({ label: "AWP agent CLI (stream-json)", message: "not judged", color: "lightgrey" });
  });

  it("--level should counts MUST and SHOULD clauses", () => {
    const report = resummarized(provider, provider.clauses, "should");
    const s = report.summary.byLevel;
    const judgedOf = (b: typeof s.MUST): number => b.passed + b.failed + b.expectedFailures + b.flaky;
    expect(badgeContent(report).message).toBe(`${s.MUST.passed + s.SHOULD.passed} of ${judgedOf(s.MUST) + judgedOf(s.SHOULD)} MUST/SHOULD`);
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
    expect(badgeContent(report)).toMatchObject({ label: "AWP agent CLI", message: "28 of 29 MUST" });
    expect(wellFormed(svg)).toBe(true);
  });

  it("survives a tampered summary (odd level, missing or negative counts)", () => {
    const summary = { ...agent.summary, level: "constructor", byLevel: { MUST: { passed: -3, failed: Number.NaN } } } as unknown as RunReport["summary"];
    const badge = badgeContent({ ...agent, summary });
    expect(badge).toMatchObject({ label: "AWP agent CLI (stream-json)", color: "red" });
    expect(badge.message).toMatch(/^[a-z0-9 ()/-]+$/i);
  });
});

describe("badge label", () => {
  it("names the protocol, the agent-cli mode, and a policy test", () => {
    expect(badgeContent(provider).label).toBe("aw-provider");
    expect(badgeContent({ ...agent, mode: "awp-jsonl" }).label).toBe("AWP agent CLI (awp-jsonl)");
    expect(badgeContent({ ...provider, protocol: "policy-test", clauses: [], summary: summarize([], 0) }).label).toBe("aw-provider policy tests");
    expect(badgeContent({ ...provider, protocol: "host", mode: "agent-cli" }).label).toBe("AWP host launch (agent-cli)");
  });
});

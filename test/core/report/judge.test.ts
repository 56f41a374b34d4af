import { describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { combineJudgements, exitCodeFor, judgeClauses, kitBoundOptions, summarize, type Check } from "../../../src/core/report/judge.js";
import type { Clause, ClauseResult, Finding, Judgement, KitBound, Level } from "../../../src/core/report/types.js";

const clause = (id: string, level: Level = "MUST"): Clause => ({
  id,
  level,
  title: `title of ${id}`,
  text: "A clause text for the judge test.",
  source: { doc: "spec/provider-protocol.md", section: "invoke" },
});

const finding = (id: string, message = "wrong"): Finding => ({ clause: id, message });
const judged = (count: number, findings: Finding[] = []): Judgement => ({ outcome: "judged", judged: count, findings });
const skip = (reason: string): Judgement => ({ outcome: "skip", reason });
const na = (reason: string): Judgement => ({ outcome: "not-applicable", reason });

function thrown(run: () => unknown): KitError {
  try {
    run();
  } catch (error) {
    if (error instanceof KitError) return error;
    throw error;
  }
  throw new Error("expected a KitError");
}

describe("combineJudgements", () => {
  const c = clause("provider/area/rule", "SHOULD");

  it("carries the clause's id, level and title", () => {
    expect(combineJudgements(c, [judged(1)])).toMatchObject({ id: c.id, level: "SHOULD", title: c.title });
  });

  it("any finding fails the clause, whatever else was judged", () => {
    const f = finding(c.id);
    const result = combineJudgements(c, [judged(4), skip("later"), judged(2, [f]), na("n/a")]);
    expect(result).toMatchObject({ status: "fail", judged: 6, findings: [f] });
    expect(result.reason).toBeUndefined();
  });

  it("collects the findings of every judgement in order", () => {
    const [a, b, d] = [finding(c.id, "a"), finding(c.id, "b"), finding(c.id, "d")];
    expect(combineJudgements(c, [judged(1, [a, b]), judged(1, [d])]).findings).toEqual([a, b, d]);
  });

  it("a finding fails even when it reports zero exchanges judged", () => {
    expect(combineJudgements(c, [judged(0, [finding(c.id)])]).status).toBe("fail");
  });

  it("judged exchanges without findings pass, and a skip beside them does not matter", () => {
    expect(combineJudgements(c, [judged(3)])).toMatchObject({ status: "pass", judged: 3, findings: [] });
    expect(combineJudgements(c, [skip("no after-tool operation"), judged(1)])).toMatchObject({ status: "pass", judged: 1 });
    expect(combineJudgements(c, [judged(1)]).reason).toBeUndefined();
  });

  it("nothing judged: a skip keeps its reason (the first skip wins over not-applicable)", () => {
    expect(combineJudgements(c, [judged(0), na("n/a"), skip("first"), skip("second")])).toEqual({
      id: c.id,
      level: "SHOULD",
      title: c.title,
      status: "skip",
      reason: "first",
      judged: 0,
      findings: [],
    });
  });

  it("nothing judged and no skip: not-applicable with its reason", () => {
    expect(combineJudgements(c, [na("the provider declares no block effect"), na("other")])).toMatchObject({
      status: "not-applicable",
      reason: "the provider declares no block effect",
      judged: 0,
      findings: [],
    });
  });

  it("no judgement at all, or only empty ones: not-applicable, nothing to judge", () => {
    expect(combineJudgements(c, [])).toMatchObject({ status: "not-applicable", reason: "nothing to judge" });
    expect(combineJudgements(c, [judged(0)])).toMatchObject({ status: "not-applicable", reason: "nothing to judge" });
  });
});

describe("judgeClauses", () => {
  const clauses = [clause("p/a/one"), clause("p/a/two", "SHOULD"), clause("p/b/three", "MAY")];
  const check = (id: string, judge: (subject: string) => Judgement): Check<string> => ({ clause: id, judge });
  const checks: Check<string>[] = [
    check("p/a/one", (s) => judged(1, s.includes("bad") ? [finding("p/a/one")] : [])),
    check("p/a/one", () => judged(2)),
    check("p/a/two", () => skip("not today")),
    check("p/b/three", () => na("no such thing")),
  ];
  const all = () => true;

  it("runs every check of every clause, in catalogue order", () => {
    const { results, deselected } = judgeClauses(clauses, checks, "good", all);
    expect(deselected).toBe(0);
    expect(results.map((r) => [r.id, r.status, r.judged])).toEqual([
      ["p/a/one", "pass", 3],
      ["p/a/two", "skip", 0],
      ["p/b/three", "not-applicable", 0],
    ]);
    expect(judgeClauses(clauses, checks, "bad", all).results[0]).toMatchObject({ status: "fail", judged: 3 });
  });

  it("passes the subject to each check", () => {
    const seen: string[] = [];
    const spy = clauses.map((c) => check(c.id, (s) => (seen.push(`${c.id}:${s}`), judged(1))));
    judgeClauses(clauses, spy, "subject-1", all);
    expect(seen).toEqual(["p/a/one:subject-1", "p/a/two:subject-1", "p/b/three:subject-1"]);
  });

  it("counts deselected clauses and never runs their checks", () => {
    let ran = 0;
    const counting = clauses.map((c) => check(c.id, () => (ran++, judged(1))));
    const { results, deselected } = judgeClauses(clauses, counting, "x", (id) => id.startsWith("p/a/"));
    expect(results.map((r) => r.id)).toEqual(["p/a/one", "p/a/two"]);
    expect(deselected).toBe(1);
    expect(ran).toBe(2);
    expect(judgeClauses(clauses, counting, "x", () => false)).toEqual({ results: [], deselected: 3 });
  });

  it("a selected clause without a check is a kit bug", () => {
    const error = thrown(() => judgeClauses(clauses, checks.slice(0, 3), "x", all));
    expect(error.code).toBe("kit_bug");
    expect(error.message).toContain("p/b/three");
  });

  it("a check for a clause not in the catalogue is a kit bug, even when that clause is not selected", () => {
    const stray = [...checks, check("p/c/unknown", () => judged(1))];
    const error = thrown(() => judgeClauses(clauses, stray, "x", all));
    expect(error.code).toBe("kit_bug");
    expect(error.message).toContain("p/c/unknown");
    expect(thrown(() => judgeClauses(clauses, stray, "x", () => false)).code).toBe("kit_bug");
  });
});

describe("summarize and exitCodeFor", () => {
  const result = (id: string, level: Level, status: ClauseResult["status"]): ClauseResult => ({
    id,
    level,
    title: id,
    status,
    judged: status === "pass" || status === "fail" ? 1 : 0,
    findings: status === "fail" ? [finding(id)] : [],
    ...(status === "skip" || status === "not-applicable" ? { reason: "because" } : {}),
  });

  it("counts statuses overall and by level, and carries deselected", () => {
    const results = [
      result("p/a/1", "MUST", "pass"),
      result("p/a/2", "MUST", "pass"),
      result("p/a/3", "SHOULD", "fail"),
      result("p/a/4", "SHOULD", "skip"),
      result("p/a/5", "MAY", "not-applicable"),
      result("p/a/6", "MAY", "pass"),
    ];
    const summary = summarize(results, 4);
    // The SHOULD failure is a warning at --level must, counted there only (not also as failed).
    const none = { passed: 0, failed: 0, warnings: 0, expectedFailures: 0, flaky: 0, skipped: 0, notApplicable: 0 };
    expect(summary).toEqual({
      total: 6,
      passed: 3,
      failed: 0,
      warnings: 1,
      expectedFailures: 0,
      flaky: 0,
      skipped: 1,
      notApplicable: 1,
      deselected: 4,
      byLevel: {
        MUST: { ...none, passed: 2 },
        SHOULD: { ...none, warnings: 1, skipped: 1 },
        MAY: { ...none, passed: 1, notApplicable: 1 },
      },
      incomplete: [],
      atKitBound: 0,
      stale: [],
      level: "must",
      conformant: true,
      verdict: "conformant",
    });
  });

  it("counts apart the counted failures that rest only on a bound the kit chose; they still fail the run", () => {
    const bound: KitBound = { option: "--stall-timeout", value: 180_000, unit: "ms", activity: "still retrying: 9 model requests" };
    const atBound = (id: string, level: Level): ClauseResult => ({ ...result(id, level, "fail"), findings: [{ clause: id, message: "no terminal event", kitBound: bound }] });
    const mixed: ClauseResult = { ...atBound("p/a/2", "MUST"), findings: [{ clause: "p/a/2", message: "no terminal event", kitBound: bound }, { clause: "p/a/2", message: "wrong" }] };
    const summary = summarize([atBound("p/a/1", "MUST"), mixed, atBound("p/a/3", "SHOULD"), result("p/a/4", "MUST", "fail")], 0);
    // Only p/a/1: p/a/2 has a finding of its own, p/a/3 is a warning at --level must, p/a/4 has no finding at a bound.
    expect(summary).toMatchObject({ failed: 3, warnings: 1, atKitBound: 1, verdict: "not-conformant" });
    expect(kitBoundOptions([mixed])).toEqual([{ option: "--stall-timeout", value: 180_000, unit: "ms" }]);
  });

  it("conformant when something was judged, no MUST failed and no MUST was skipped", () => {
    const summary = summarize([result("p/a/1", "MUST", "pass"), result("p/a/2", "SHOULD", "skip"), result("p/a/3", "MUST", "not-applicable")], 0);
    expect(summary.conformant).toBe(true);
    expect(summary.verdict).toBe("conformant");
    expect(exitCodeFor(summary)).toBe(0);
  });

  it("a skipped MUST clause makes the run incomplete (exit 4), not conformant", () => {
    const summary = summarize([result("p/a/1", "MUST", "pass"), result("p/a/2", "MUST", "skip")], 0);
    expect(summary.conformant).toBe(false);
    expect(summary.verdict).toBe("incomplete");
    expect(summary.incomplete).toEqual([{ reason: "because", clauses: ["p/a/2"] }]);
    expect(exitCodeFor(summary)).toBe(4);
  });

  it("a SHOULD or MAY failure alone is still conformant", () => {
    for (const level of ["SHOULD", "MAY"] as const) {
      const summary = summarize([result("p/a/1", level, "fail")], 0);
      expect(summary.failed).toBe(0);
      expect(summary.warnings).toBe(1);
      expect(summary.verdict, level).toBe("conformant");
      expect(exitCodeFor(summary), level).toBe(0);
    }
  });

  it("one MUST failure makes the run not conformant (exit 1)", () => {
    const summary = summarize([result("p/a/1", "MUST", "pass"), result("p/a/2", "MUST", "fail"), result("p/a/3", "SHOULD", "pass")], 0);
    expect(summary.conformant).toBe(false);
    expect(summary.verdict).toBe("not-conformant");
    expect(exitCodeFor(summary)).toBe(1);
  });

  it("nothing judged is never a pass: verdict nothing-judged, exit 1", () => {
    // (A skipped MUST clause makes such a run incomplete instead: see summarize.test.ts.)
    const cases: ClauseResult[][] = [
      [],
      [result("p/a/1", "SHOULD", "skip"), result("p/a/2", "MUST", "not-applicable")],
      [result("p/a/1", "MAY", "not-applicable")],
    ];
    for (const results of cases) {
      const summary = summarize(results, 7);
      expect(summary.conformant).toBe(false);
      expect(summary.verdict).toBe("nothing-judged");
      expect(summary.deselected).toBe(7);
      expect(exitCodeFor(summary)).toBe(1);
    }
  });

  it("end to end: judgeClauses then summarize", () => {
    const clauses = [clause("p/a/must"), clause("p/a/should", "SHOULD"), clause("p/a/gone")];
    const checks: Check<number>[] = [
      { clause: "p/a/must", judge: (n) => judged(n, []) },
      { clause: "p/a/should", judge: (n) => judged(n, [finding("p/a/should")]) },
      { clause: "p/a/gone", judge: () => judged(1, [finding("p/a/gone")]) },
    ];
    const { results, deselected } = judgeClauses(clauses, checks, 2, (id) => id !== "p/a/gone");
    const summary = summarize(results, deselected);
    expect(summary).toMatchObject({ total: 2, passed: 1, failed: 0, warnings: 1, deselected: 1, verdict: "conformant" });
    expect(exitCodeFor(summary)).toBe(0);
    // With nothing to judge for the MUST clause, the SHOULD failure is the only judged result:
    // the run counts as judged, and with no MUST failure it is conformant.
    const none = judgeClauses(clauses, checks, 0, (id) => id !== "p/a/gone");
    expect(none.results.map((r) => r.status)).toEqual(["not-applicable", "fail"]);
    expect(summarize(none.results, none.deselected).verdict).toBe("conformant");
  });
});

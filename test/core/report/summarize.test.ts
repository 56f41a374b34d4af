import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { assertJudgedPasses, bucketOf, countedFailures, EXIT_CODES, exitCodeFor, incompleteGroups, summarize, worseExitCode, type VerdictExitCode } from "../../../src/core/report/judge.js";
import { kitSchema } from "../../../src/core/schema.js";
import type { Buckets, ClauseResult, CountedLevel, Level, RunReport, Summary } from "../../../src/core/report/types.js";

const BUCKETS: readonly (keyof Buckets)[] = ["passed", "failed", "warnings", "expectedFailures", "flaky", "skipped", "notApplicable"];
const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];
const COUNTED: Record<CountedLevel, readonly Level[]> = { must: ["MUST"], should: ["MUST", "SHOULD"], all: LEVELS };

function result(id: string, level: Level, status: ClauseResult["status"], extra: Partial<ClauseResult> = {}): ClauseResult {
  return {
    id,
    level,
    title: id,
    status,
    judged: status === "pass" || status === "fail" ? 1 : 0,
    findings: status === "fail" ? [{ clause: id, message: "wrong" }] : [],
    ...(status === "skip" || status === "not-applicable" ? { reason: "because" } : {}),
    ...extra,
  };
}

const skip = (id: string, level: Level, reason: string): ClauseResult => result(id, level, "skip", { reason });

describe("summarize: the verdict", () => {
  it("a counted failure wins over a skipped MUST clause: not conformant, and the skips are still listed", () => {
    const summary = summarize([result("p/a/1", "MUST", "fail"), skip("p/a/2", "MUST", "give --x")], 0);
    expect(summary.verdict).toBe("not-conformant");
    expect(summary.incomplete).toEqual([{ reason: "give --x", clauses: ["p/a/2"] }]);
    expect(exitCodeFor(summary)).toBe(1);
  });

  it("a stale expected-failure entry wins over a skipped MUST clause", () => {
    const summary = summarize([result("p/a/1", "MUST", "pass"), skip("p/a/2", "MUST", "give --x")], 0, { stale: ["x.txt:1: p/a/9 matches no clause"] });
    expect(summary.verdict).toBe("not-conformant");
    expect(exitCodeFor(summary)).toBe(1);
  });

  it("expected and flaky MUST failures do not hide a skipped MUST clause: incomplete", () => {
    const results = [
      result("p/a/1", "MUST", "fail", { expectation: "expected-failure" }),
      result("p/a/2", "MUST", "fail", { expectation: "flaky" }),
      skip("p/a/3", "MUST", "give --x"),
    ];
    const summary = summarize(results, 0);
    expect(summary).toMatchObject({ verdict: "incomplete", failed: 0, expectedFailures: 1, flaky: 1, skipped: 1, conformant: false });
    expect(exitCodeFor(summary)).toBe(4);
  });

  it("every clause skipped with a MUST among them is incomplete, not nothing-judged", () => {
    const summary = summarize([skip("p/a/1", "MUST", "the CLI exited at start"), result("p/a/2", "SHOULD", "not-applicable")], 3);
    expect(summary.verdict).toBe("incomplete");
    expect(exitCodeFor(summary)).toBe(4);
  });

  it("not-applicable never makes a run incomplete, at any level", () => {
    for (const level of ["must", "should", "all"] as const) {
      const results = LEVELS.map((l, i) => result(`p/a/${i}`, l, "not-applicable"));
      const summary = summarize([result("p/a/x", "MUST", "pass"), ...results], 0, { level });
      expect(summary.verdict, level).toBe("conformant");
      expect(summary.incomplete, level).toEqual([]);
    }
  });

  it("--level decides which skips count: SHOULD at should and all, MAY at all only", () => {
    const results = [result("p/a/1", "MUST", "pass"), skip("p/a/2", "SHOULD", "s"), skip("p/a/3", "MAY", "m")];
    expect(summarize(results, 0, { level: "must" })).toMatchObject({ verdict: "conformant", incomplete: [] });
    expect(summarize(results, 0, { level: "should" })).toMatchObject({ verdict: "incomplete", incomplete: [{ reason: "s", clauses: ["p/a/2"] }] });
    expect(summarize(results, 0, { level: "all" })).toMatchObject({
      verdict: "incomplete",
      incomplete: [
        { reason: "s", clauses: ["p/a/2"] },
        { reason: "m", clauses: ["p/a/3"] },
      ],
    });
  });

  it("conformant is true exactly for the conformant verdict", () => {
    expect(summarize([result("p/a/1", "MUST", "pass")], 0)).toMatchObject({ verdict: "conformant", conformant: true });
    expect(summarize([result("p/a/1", "MUST", "pass"), skip("p/a/2", "MUST", "r")], 0)).toMatchObject({ verdict: "incomplete", conformant: false });
  });
});

describe("summarize: incomplete groups", () => {
  it("groups skipped counted clauses by identical reason, in the order of each group's first clause", () => {
    const shared = "the CLI never called the kit's model fixture: point it at {{fixture.openai}}";
    const results = [
      skip("a/b/1", "MUST", "give --invalid-config-file FILE"),
      result("a/b/2", "MUST", "pass"),
      skip("a/b/3", "MUST", shared),
      skip("a/b/4", "SHOULD", shared),
      skip("a/b/5", "MUST", shared),
      skip("a/b/6", "MUST", "give --invalid-config-file FILE"),
      result("a/b/7", "MUST", "not-applicable"),
    ];
    expect(summarize(results, 0).incomplete).toEqual([
      { reason: "give --invalid-config-file FILE", clauses: ["a/b/1", "a/b/6"] },
      { reason: shared, clauses: ["a/b/3", "a/b/5"] },
    ]);
    expect(incompleteGroups(results, "should")[1]).toEqual({ reason: shared, clauses: ["a/b/3", "a/b/4", "a/b/5"] });
  });

  it("a skip without a reason still gets a group (a report written by hand)", () => {
    const bare = { ...skip("a/b/1", "MUST", "x"), reason: undefined };
    expect(incompleteGroups([bare], "must")).toEqual([{ reason: "skipped (no reason given)", clauses: ["a/b/1"] }]);
  });

  it("is empty when the run is complete", () => {
    expect(summarize([], 0).incomplete).toEqual([]);
    expect(summarize([result("a/b/1", "MUST", "fail")], 0).incomplete).toEqual([]);
  });
});

describe("summarize: no pass with nothing judged", () => {
  it("a pass with judged 0 is a kit bug naming the clause, whichever command built the results", () => {
    const hollow = result("agent-cli/turns/text-blocks", "MUST", "pass", { judged: 0 });
    expect(() => summarize([result("a/b/1", "MUST", "pass"), hollow], 0)).toThrowError(expect.objectContaining({ code: "kit_bug", message: expect.stringContaining("agent-cli/turns/text-blocks") }));
    expect(() => assertJudgedPasses([hollow])).toThrow(/pass with nothing judged/);
    // A fail may rest on findings alone; skips and not-applicable results judged nothing by definition.
    expect(() => assertJudgedPasses([result("a/b/1", "MUST", "fail", { judged: 0 }), result("a/b/2", "MUST", "skip"), result("a/b/3", "MUST", "not-applicable")])).not.toThrow();
  });

  it("the report schema refuses a pass with judged 0, so a saved report carrying one is refused too", () => {
    const validate = kitSchema("report.schema.json");
    const report = (judged: number): RunReport => {
      const clauses = [result("provider/a/b", "MUST", "pass")];
      return { reportVersion: 1, tool: { name: "awp-conformance", version: "0" }, protocol: "provider", candidate: { argv: ["p"] }, startedAt: "2026-01-01T00:00:00.000Z", endedAt: "2026-01-01T00:00:01.000Z", options: {}, selection: { clause: [], skip: [] }, summary: summarize(clauses, 0), clauses: clauses.map((c) => ({ ...c, judged })), notes: [] };
    };
    expect(validate(report(1))).toBe(true);
    expect(validate(report(0))).toBe(false);
  });
});

describe("exit codes", () => {
  it("maps every verdict: 0 conformant, 1 not conformant or nothing judged, 4 incomplete", () => {
    expect(EXIT_CODES).toEqual({ conformant: 0, "not-conformant": 1, "nothing-judged": 1, incomplete: 4 });
    expect(exitCodeFor({ verdict: "incomplete" })).toBe(4);
    // A tampered report's unknown verdict is never a pass.
    expect(exitCodeFor({ verdict: "mostly" as Summary["verdict"] })).toBe(1);
    expect(exitCodeFor({ verdict: "toString" as Summary["verdict"] })).toBe(1);
  });

  it("several runs in one command end with the worst: not conformant over incomplete over conformant", () => {
    const worst = (codes: VerdictExitCode[]): VerdictExitCode => codes.reduce(worseExitCode, 0);
    expect(worst([0, 0])).toBe(0);
    expect(worst([0, 4, 0])).toBe(4);
    expect(worst([4, 1, 0])).toBe(1);
    expect(worst([1, 4])).toBe(1);
  });
});

const arbResult: fc.Arbitrary<ClauseResult> = fc
  .record({
    level: fc.constantFrom<Level>("MUST", "SHOULD", "MAY"),
    status: fc.constantFrom<ClauseResult["status"]>("pass", "fail", "skip", "not-applicable"),
    expectation: fc.constantFrom<ClauseResult["expectation"] | undefined>(undefined, "expected-failure", "flaky"),
    reason: fc.constantFrom("give --config-json", "give --invalid-config-file FILE", "the CLI exited at start"),
  })
  .map(({ level, status, expectation, reason }) => result("p/x/y", level, status, { ...(expectation !== undefined ? { expectation } : {}), ...(status === "skip" || status === "not-applicable" ? { reason } : {}) }));
const arbResults = fc.array(arbResult, { maxLength: 40 }).map((rs) => rs.map((r, i) => ({ ...r, id: `p/x/c${i}`, title: `c${i}` })));
const arbLevel = fc.constantFrom<CountedLevel>("must", "should", "all");
const arbStale = fc.array(fc.constant("x.txt:1: p/x/z matches no clause of this run"), { maxLength: 1 });

describe("summarize: properties", () => {
  test.prop([arbResults, arbLevel, fc.nat({ max: 50 }), arbStale], { numRuns: 500 })(
    "every clause is in exactly one bucket: the buckets add up to the total, overall and per level",
    (results, level, deselected, stale) => {
      const s = summarize(results, deselected, { level, stale });
      expect(BUCKETS.reduce((n, b) => n + s[b], 0)).toBe(s.total);
      expect(s.total).toBe(results.length);
      for (const b of BUCKETS) {
        expect(results.filter((r) => bucketOf(r, level) === b).length, b).toBe(s[b]);
        expect(LEVELS.reduce((n, l) => n + s.byLevel[l][b], 0), b).toBe(s[b]);
      }
      for (const l of LEVELS) expect(BUCKETS.reduce((n, b) => n + s.byLevel[l][b], 0), l).toBe(results.filter((r) => r.level === l).length);
      expect(s.failed).toBe(countedFailures(results, level).length);
      expect(s.deselected).toBe(deselected);
    },
  );

  test.prop([arbResults, arbLevel, arbStale], { numRuns: 500 })("the verdict follows the rule, and incomplete lists exactly the counted skips", (results, level, stale) => {
    const s = summarize(results, 0, { level, stale });
    const counted = (r: ClauseResult): boolean => COUNTED[level].includes(r.level);
    const countedFail = results.some((r) => r.status === "fail" && r.expectation === undefined && counted(r));
    const countedSkips = results.filter((r) => r.status === "skip" && counted(r)).map((r) => r.id);
    const judged = results.some((r) => r.status === "pass" || r.status === "fail");
    const want = countedFail || stale.length > 0 ? "not-conformant" : countedSkips.length > 0 ? "incomplete" : judged ? "conformant" : "nothing-judged";
    expect(s.verdict).toBe(want);
    expect(s.conformant).toBe(want === "conformant");
    expect(s.incomplete.flatMap((g) => g.clauses).sort()).toEqual([...countedSkips].sort());
    expect(new Set(s.incomplete.map((g) => g.reason)).size).toBe(s.incomplete.length);
    // Groups come in the order of their first clause.
    const firsts = s.incomplete.map((g) => results.findIndex((r) => r.id === g.clauses[0]));
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    expect(exitCodeFor(s)).toBe(EXIT_CODES[want]);
  });

  const validate = kitSchema("report.schema.json");
  test.prop([arbResults, arbLevel, arbStale], { numRuns: 100 })("every summary is valid against report.schema.json", (results, level, stale) => {
    const report: RunReport = {
      reportVersion: 1,
      tool: { name: "awp-conformance", version: "0.1.0" },
      protocol: "provider",
      candidate: { argv: ["/bin/x"] },
      startedAt: "2026-01-01T00:00:00.000Z",
      endedAt: "2026-01-01T00:00:01.000Z",
      options: {},
      selection: { clause: [], skip: [] },
      summary: summarize(results, 0, { level, stale }),
      clauses: results.map((r) => ({ ...r, id: r.id.replace(/^p\//, "provider/") })),
      notes: [],
    };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { combineResults, merge, type ShardReport } from "../../../src/core/report/merge.js";
import { caseRange, finishShard, parseShard, shardResults } from "../../../src/core/report/shard.js";
import type { ClauseResult, Finding, RunReport } from "../../../src/core/report/types.js";
import { providerClauseUnit, providerUnits, PROVIDER_UNITS } from "../../../src/core/provider/shard.js";
import { SCENARIO_NAMES } from "../../../src/core/agent-cli/scenarios.js";
import { agentShardView } from "../../../src/runner/agent-cli/suite.js";
import { reportOf } from "./report-of.js";

const f = (clause: string, requestId: string, extra: Partial<Finding> = {}): Finding => ({ clause, message: `bad ${requestId}`, requestId, ...extra });
const result = (id: string, status: ClauseResult["status"], findings: Finding[] = [], judged = status === "pass" || status === "fail" ? 1 : 0, reason?: string): ClauseResult => ({
  id,
  level: "MUST",
  title: id,
  status,
  judged,
  findings,
  ...(reason !== undefined ? { reason } : status === "skip" || status === "not-applicable" ? { reason: `${status} reason` } : {}),
});

function shardReport(index: number, count: number, clauses: ClauseResult[], extra: Partial<RunReport> = {}): ShardReport {
  return { report: reportOf(clauses, { shard: { index, count, elsewhere: 0 }, ...extra }), source: `dir${index}` };
}

describe("--shard K/N", () => {
  it("reads K/N and refuses anything else with one line naming the value", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    for (const bad of ["0/4", "5/4", "1/0", "a/b", "1", "1/2/3", "-1/2", "1.5/2", "1/300", ""]) {
      const error = (() => {
        try {
          parseShard(bad);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, bad).toBeInstanceOf(KitError);
      expect((error as KitError).exitCode).toBe(2);
      expect((error as KitError).message).toMatch(/^--shard ".*": .*give K\/N/);
      expect((error as KitError).message).not.toContain("\n");
    }
  });

  it("splits the case indices into contiguous slices that cover every index once", () => {
    for (const total of [0, 1, 7, 100, 101]) {
      for (const count of [1, 2, 3, 4, 9]) {
        const slices = Array.from({ length: count }, (_, i) => caseRange(total, { index: i + 1, count }));
        expect(slices[0]?.from).toBe(0);
        expect(slices.at(-1)?.to).toBe(total);
        slices.forEach((s, i) => {
          expect(s.to - s.from).toBeGreaterThanOrEqual(Math.floor(total / count));
          expect(s.to - s.from).toBeLessThanOrEqual(Math.ceil(total / count));
          if (i > 0) expect(s.from).toBe(slices[i - 1]?.to);
        });
      }
    }
  });

  it("deals the provider units round-robin, each to one shard, and gives every clause a home unit", () => {
    for (const count of [1, 2, 3, 4, 6, 8]) {
      const dealt = Array.from({ length: count }, (_, i) => providerUnits({ index: i + 1, count })).flat();
      expect([...dealt].sort()).toEqual([...PROVIDER_UNITS].sort());
    }
    expect(providerClauseUnit("provider/robustness/no-hang")).toBe("hostile");
    expect(providerClauseUnit("provider/invoke/answers-ok")).toBe("matrix");
    expect(providerClauseUnit("provider/validate-config/rejects-invalid-config")).toBe("config");
    expect(providerClauseUnit("provider/envelope/echoes-request-id")).toBe("setup");
  });

  it("gives an agent-cli clause the shard of the first scenario that judges it; the launch clauses to shard 1", () => {
    const view = (index: number) => agentShardView({ index, count: 4 }, SCENARIO_NAMES);
    // basic, queued, content, malformed, tools, mcp, ...: mcp is the sixth, so shard 2 of 4.
    expect([1, 2, 3, 4].filter((k) => view(k).home("agent-cli/input/mcp-config"))).toEqual([2]);
    expect([1, 2, 3, 4].filter((k) => view(k).home("agent-cli/output/json-object-lines"))).toEqual([1]);
    expect([1, 2, 3, 4].filter((k) => view(k).home("agent-cli/launch/model-id"))).toEqual([1]);
    expect(view(3).factual?.("agent-cli/launch/model-id")).toBe(true);
    expect(view(3).factual?.("agent-cli/session/stays-up")).toBe(false);
    // A clause no scenario of the run judges (here: no resume scenario) is shard 1's.
    const without = (index: number) => agentShardView({ index, count: 2 }, SCENARIO_NAMES.filter((n) => n !== "resume"));
    expect([1, 2].filter((k) => without(k).home("agent-cli/resume/history-restored"))).toEqual([1]);
  });

  it("takes out what requests sent only as context showed, and leaves clauses without evidence of its own to their home shard", () => {
    const full = [
      // Judged on an owned request and on a context one (the same finding also stands in the owning shard).
      result("provider/envelope/echoes-request-id", "fail", [f("provider/envelope/echoes-request-id", "describe-1"), f("provider/envelope/echoes-request-id", "hostile-x")], 3),
      // Judged on context requests only.
      result("provider/describe/answers-ok", "pass", [], 1),
      // Unjudged here: only the home shard's reason counts.
      result("provider/invoke/effect-shape", "skip"),
      result("provider/robustness/no-hang", "not-applicable"),
    ];
    const context = [result("provider/envelope/echoes-request-id", "fail", [f("provider/envelope/echoes-request-id", "describe-1")], 1), result("provider/describe/answers-ok", "pass", [], 1)];
    const { results, elsewhere } = shardResults(full, context, { shard: { index: 1, count: 2 }, home: (id) => id.includes("robustness") });
    expect(results[0]).toMatchObject({ status: "fail", judged: 2, findings: [{ requestId: "hostile-x" }] });
    expect(elsewhere).toEqual(["provider/describe/answers-ok", "provider/invoke/effect-shape"]);
    expect(results[3]).toMatchObject({ status: "not-applicable" });
    const report = shardReport(1, 2, results).report;
    const finished = finishShard(report, elsewhere);
    expect(finished.clauses.map((c) => c.id)).toEqual(["provider/envelope/echoes-request-id", "provider/robustness/no-hang"]);
    expect(finished.summary.total).toBe(2);
    expect(finished.shard?.elsewhere).toBe(2);
  });
});

describe("merge", () => {
  it("fails a clause that failed anywhere, passes one that passed somewhere, skips only what every shard skipped", () => {
    expect(combineResults([result("x/a/b", "pass", [], 2), result("x/a/b", "fail", [f("x/a/b", "r")], 3)])).toMatchObject({ status: "fail", judged: 5, findings: [{ requestId: "r" }] });
    expect(combineResults([result("x/a/b", "skip"), result("x/a/b", "pass")])).toMatchObject({ status: "pass", findings: [] });
    expect(combineResults([result("x/a/b", "skip", [], 0, "one"), result("x/a/b", "skip", [], 0, "two")])).toMatchObject({ status: "skip", reason: "one" });
    expect(combineResults([result("x/a/b", "skip"), result("x/a/b", "not-applicable", [], 0, "never arose")])).toMatchObject({ status: "not-applicable", reason: "never arose" });
    const marked = combineResults([{ ...result("x/a/b", "fail", [f("x/a/b", "r")]), expectation: "expected-failure" }]);
    expect(marked.expectation).toBeUndefined();
  });

  it("names each shard's reason when the shards that judged nothing give different ones", () => {
    const merged = combineResults([result("x/a/b", "skip", [], 0, "one"), result("x/a/b", "skip", [], 0, "two")], ["shard 1/2", "shard 2/2"]);
    expect(merged).toMatchObject({ status: "skip", reason: "shard 1/2: one; shard 2/2: two" });
    expect(combineResults([result("x/a/b", "skip", [], 0, "one"), result("x/a/b", "skip", [], 0, "one")], ["shard 1/2", "shard 2/2"]).reason).toBe("one");
  });

  it("words a fuzzed clause no shard's cases judged over the whole campaign, and sums the cases that judged each clause", () => {
    const [judgedId, unjudgedId] = ["provider/envelope/status-value", "provider/envelope/error-code-form"];
    const shard = (index: number, reason: string): ShardReport => {
      const unjudged = [{ outcome: "not-applicable" as const, reason, cases: 2 }];
      const fuzz: RunReport["fuzz"] = { seed: 5, cases: 2, calls: 2, failures: 0, unit: "request", kinds: [], sizes: [], judgedBy: [{ name: judgedId, count: index }, { name: unjudgedId, count: 0, unjudged }] };
      return shardReport(index, 2, [result(judgedId, "pass", [], index), result(unjudgedId, "not-applicable", [], 0, `in every fuzzed request: ${reason}`)], { fuzz });
    };
    const merged = merge([shard(1, "no error answer"), shard(2, "no error at all")]);
    expect(merged.fuzz?.judgedBy).toEqual([
      { name: judgedId, count: 3 },
      { name: unjudgedId, count: 0, unjudged: [{ outcome: "not-applicable", reason: "no error answer", cases: 2 }, { outcome: "not-applicable", reason: "no error at all", cases: 2 }] },
    ]);
    // As the unsharded campaign of the four requests words it.
    expect(merged.clauses.find((c) => c.id === unjudgedId)).toMatchObject({ status: "not-applicable", reason: "in every fuzzed request, one of: no error answer; no error at all" });
    expect(merged.clauses.find((c) => c.id === judgedId)).toMatchObject({ status: "pass", judged: 3 });
  });

  it("keeps the generated fuzz failure of the lowest case index, as the unsharded run would have shrunk it, and every corpus finding", () => {
    const fuzz = (path: string, corpus = false): Finding => f("x/a/b", `fuzz-${path}`, { foundBy: "fuzz", fuzzCase: { seed: 1, path, ...(corpus ? { corpus: true as const } : {}) } });
    const merged = combineResults([result("x/a/b", "fail", [fuzz("1:0"), fuzz("0:3", true)]), result("x/a/b", "fail", [fuzz("7:0:1")])]);
    expect(merged.findings.map((x) => x.requestId)).toEqual(["fuzz-1:0", "fuzz-0:3"]);
  });

  it("sums the shards' fuzz coverage and recounts the summary; refuses missing, repeated or foreign shards", () => {
    const fuzz = (cases: number): RunReport["fuzz"] => ({ seed: 5, cases, calls: cases, failures: 0, unit: "request", kinds: [{ name: "valid", count: cases }], sizes: [{ name: "size", of: "requests", buckets: [{ name: "small", count: cases }] }] });
    const a = shardReport(1, 2, [result("provider/envelope/status-value", "pass")], { fuzz: fuzz(3), notes: ["Fuzzing: 3 generated cases", "same"] });
    const b = shardReport(2, 2, [result("provider/envelope/status-value", "fail", [f("provider/envelope/status-value", "r")]), result("provider/describe/answers-ok", "pass")], { fuzz: fuzz(4), notes: ["same"] });
    const merged = merge([b, a]);
    // In catalogue order, as the unsharded run lists them.
    expect(merged.clauses.map((c) => [c.id, c.status])).toEqual([["provider/envelope/status-value", "fail"], ["provider/describe/answers-ok", "pass"]]);
    expect(merged.summary).toMatchObject({ total: 2, passed: 1, failed: 1, verdict: "not-conformant" });
    expect(merged.fuzz).toMatchObject({ cases: 7, kinds: [{ name: "valid", count: 7 }], sizes: [{ buckets: [{ count: 7 }] }] });
    expect(merged.shard).toBeUndefined();
    expect(merged.notes.filter((n) => n === "same")).toHaveLength(1);
    expect(merged.notes.some((n) => n.startsWith("Fuzzing: 7 generated cases"))).toBe(true);
    const refused = (reports: ShardReport[]): string => {
      try {
        merge(reports);
      } catch (e) {
        expect((e as KitError).exitCode).toBe(2);
        return (e as KitError).message;
      }
      return "merged";
    };
    expect(refused([a])).toMatch(/shard 2\/2 is missing/);
    expect(refused([a, a, b])).toMatch(/shard 1\/2 is given twice/);
    expect(refused([a, shardReport(2, 3, [])])).toMatch(/differ in the shard count/);
    expect(refused([a, { ...b, report: { ...b.report, candidate: { argv: ["other"] } } }])).toMatch(/differ in the candidate/);
    expect(refused([a, { ...b, report: { ...b.report, fuzz: { ...fuzz(4)!, seed: 6 } } }])).toMatch(/differ in the fuzz seed/);
    expect(refused([a, { ...b, report: { ...b.report, options: { budgetMs: 1 } } }])).toMatch(/differ in the run options/);
    const { shard: _shard, ...plain } = a.report;
    expect(refused([{ report: plain, source: "x" }, b])).toMatch(/x is not a shard report/);
  });
});

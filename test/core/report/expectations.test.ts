import { describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { applyExpectations, parseExpectations } from "../../../src/core/report/expectations.js";
import type { ClauseResult, Level, RunReport } from "../../../src/core/report/types.js";
import { reportOf } from "./report-of.js";

const clause = (id: string, level: Level, status: ClauseResult["status"]): ClauseResult => ({ id, level, title: id, status, judged: status === "pass" || status === "fail" ? 1 : 0, findings: status === "fail" ? [{ clause: id, message: "x" }] : [], ...(status === "skip" ? { reason: "r" } : {}) });

function report(clauses: ClauseResult[], mode?: string): RunReport {
  return reportOf(clauses, { protocol: "agent-cli", candidate: { argv: ["x"] }, ...(mode ? { mode } : {}) });
}

const sample = (): RunReport =>
  report([clause("agent-cli/a/must-fail", "MUST", "fail"), clause("agent-cli/a/should-fail", "SHOULD", "fail"), clause("agent-cli/a/ok", "MUST", "pass"), clause("agent-cli/b/skipped", "MUST", "skip")], "stream-json");

describe("expected failures, flaky clauses and --level", () => {
  it("parses patterns, comments and per-mode entries, and refuses anything else", () => {
    expect(parseExpectations("# known\nagent-cli/a/must-fail  # tracked in #12\n\nagent-cli/** @stream-json\n", "x.txt")).toEqual([
      { pattern: "agent-cli/a/must-fail", source: "x.txt:2" },
      { pattern: "agent-cli/**", mode: "stream-json", source: "x.txt:4" },
    ]);
    for (const bad of ["agent-cli/a b c", "agent-cli/a @windows", "Agent CLI!"]) expect(() => parseExpectations(bad, "x")).toThrow(KitError);
  });

  it("turns a listed failure into an expected one, which no longer fails the run", () => {
    const r = applyExpectations(sample(), { expected: parseExpectations("agent-cli/a/must-fail", "e"), flaky: [] });
    expect(r.clauses[0]?.expectation).toBe("expected-failure");
    // No counted failure stands; the sample's skipped MUST clause keeps the run from conformant (incomplete).
    expect(r.summary).toMatchObject({ failed: 0, expectedFailures: 1, stale: [], verdict: "incomplete", warnings: 1 });
    const judged = applyExpectations({ ...sample(), clauses: sample().clauses.filter((c) => c.status !== "skip") }, { expected: parseExpectations("agent-cli/a/must-fail", "e"), flaky: [] });
    expect(judged.summary.verdict).toBe("conformant");
  });

  it("fails the run when an expected failure passes or a pattern matches nothing", () => {
    const r = applyExpectations(sample(), { expected: parseExpectations("agent-cli/a/must-fail\nagent-cli/a/ok\nagent-cli/zz/nothing", "e"), flaky: [] });
    expect(r.summary.stale).toEqual(["e:2: agent-cli/a/ok is listed as an expected failure but passed", "e:3: agent-cli/zz/nothing matches no clause of this run"]);
    expect(r.summary.verdict).toBe("not-conformant");
  });

  it("applies per-mode entries only in their mode, and other protocols' patterns not at all", () => {
    const other = applyExpectations(sample(), { expected: parseExpectations("agent-cli/a/must-fail @awp-jsonl\nprovider/x/y", "e"), flaky: [] });
    expect(other.clauses[0]?.expectation).toBeUndefined();
    expect(other.summary.stale).toEqual([]);
    expect(other.summary.verdict).toBe("not-conformant");
  });

  it("lets flaky clauses fail or pass without deciding anything", () => {
    const r = applyExpectations(sample(), { expected: [], flaky: parseExpectations("agent-cli/a/*-fail\nagent-cli/a/ok", "f") });
    expect(r.summary).toMatchObject({ failed: 0, flaky: 2, stale: [], verdict: "incomplete" });
  });

  it("counts SHOULD failures with --level should and all", () => {
    const base = applyExpectations(sample(), { expected: parseExpectations("agent-cli/a/must-fail", "e"), flaky: [] });
    expect(base.summary.verdict).toBe("incomplete");
    for (const level of ["should", "all"] as const) {
      const r = applyExpectations(sample(), { expected: parseExpectations("agent-cli/a/must-fail", "e"), flaky: [], level });
      expect(r.summary).toMatchObject({ level, warnings: 0, verdict: "not-conformant" });
    }
  });
});

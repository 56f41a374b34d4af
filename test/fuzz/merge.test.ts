/**
 * What fuzzing puts into a report: a fuzzed clause passes only when a case judged it, `judged`
 * counts the cases' judgements (not the cases), and the reason of a clause no case judged says
 * what never occurred. Pure: tallies of made-up case results.
 */
import { describe, expect, it } from "vitest";
import { fuzzOnlyReport } from "../../src/cli/fuzz.js";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import type { ClauseResult } from "../../src/core/report/types.js";
import { FUZZ_AGENT_CLAUSES } from "../../src/fuzz/agent-cli/index.js";
import { mergeFuzz, type FuzzOutcome } from "../../src/fuzz/merge.js";
import { ClauseTally, MAX_REASONS, tallyJudgement } from "../../src/fuzz/tally.js";
import { reportOf } from "../core/report/report-of.js";

const TEXT_BLOCKS = "agent-cli/turns/text-blocks";
const ERROR_CODE = "agent-cli/turns/error-code";
const ONE_TERMINAL = "agent-cli/turns/one-terminal-per-turn";
const STREAMED = "agent-cli/fidelity/streamed-text";
const NO_MODEL = "the CLI never called the kit's model fixture, so nothing that needs a model request could be judged";

const catalogue = new Map(loadCatalogue("agent-cli").map((c) => [c.id, c]));
function result(id: string, status: ClauseResult["status"], judged = 0, reason?: string): ClauseResult {
  const c = catalogue.get(id);
  return { id, level: c?.level ?? "MUST", title: c?.title ?? id, status, judged, findings: status === "fail" ? [{ clause: id, message: "wrong" }] : [], ...(reason !== undefined ? { reason } : {}) };
}

/** One session of a CLI that never streams content blocks, never errs and never calls a model: only one-terminal-per-turn is judged (on `turns` turns). */
function session(turns: number): ClauseResult[] {
  return [
    result(ONE_TERMINAL, "pass", turns),
    result(TEXT_BLOCKS, "not-applicable", 0, "no turn streamed content_block events"),
    result(ERROR_CODE, "not-applicable", 0, "no error result was written"),
    result(STREAMED, "skip", 0, NO_MODEL),
  ];
}

function outcome(sessions: ClauseResult[][], extra: Partial<FuzzOutcome> = {}): FuzzOutcome {
  const tally = new ClauseTally(FUZZ_AGENT_CLAUSES);
  for (const s of sessions) tally.add(s);
  return { clauses: FUZZ_AGENT_CLAUSES, cases: sessions.length, calls: sessions.length, seed: 1, failures: [], unit: "session", coverage: { kinds: [], sizes: [] }, tally: tally.data(), ...extra };
}

const clause = (report: { clauses: ClauseResult[] }, id: string): ClauseResult | undefined => report.clauses.find((c) => c.id === id);

describe("fuzz-only reports", () => {
  it("pass a clause only when a session judged it, with the judgements (not the sessions) as judged", () => {
    const report = fuzzOnlyReport("agent-cli", ["cli"], outcome([session(2), session(3), session(1)]), new Date(), []);
    expect(clause(report, ONE_TERMINAL)).toMatchObject({ status: "pass", judged: 6 });
    expect(report.fuzz?.judgedBy?.find((c) => c.name === ONE_TERMINAL)?.count).toBe(3);
    expect(report.fuzz?.judgedBy?.find((c) => c.name === TEXT_BLOCKS)?.count).toBe(0);
    expect(report.fuzz?.judgedBy?.map((c) => c.name)).toEqual([...FUZZ_AGENT_CLAUSES]);
    // The cases: never streamed content_block events, no error result in the campaign, never called a model.
    expect(clause(report, TEXT_BLOCKS)).toMatchObject({ status: "not-applicable", judged: 0, reason: "in every fuzzed session: no turn streamed content_block events" });
    expect(clause(report, ERROR_CODE)).toMatchObject({ status: "not-applicable", judged: 0, reason: "in every fuzzed session: no error result was written" });
    expect(clause(report, STREAMED)).toMatchObject({ status: "skip", judged: 0, reason: `in every fuzzed session: ${NO_MODEL}` });
    // A clause no session returned a result for is not passed either.
    expect(clause(report, "agent-cli/secrets/token-not-echoed")).toMatchObject({ status: "skip", reason: "no fuzzed session judged it" });
    expect(report.clauses.filter((c) => c.status === "pass").every((c) => c.judged >= 1)).toBe(true);
  });

  it("name every reason the sessions gave when they differ, and judge the clause when one session did", () => {
    const erred = [...session(1).filter((r) => r.id !== ERROR_CODE), result(ERROR_CODE, "skip", 0, "every error result said subtype success")];
    const mixed = fuzzOnlyReport("agent-cli", ["cli"], outcome([session(1), erred]), new Date(), []);
    expect(clause(mixed, ERROR_CODE)).toMatchObject({ status: "skip", reason: "in every fuzzed session, one of: every error result said subtype success; no error result was written" });
    const judgedOnce = [...session(1).filter((r) => r.id !== ERROR_CODE), result(ERROR_CODE, "pass", 2)];
    expect(clause(fuzzOnlyReport("agent-cli", ["cli"], outcome([session(1), judgedOnce]), new Date(), []), ERROR_CODE)).toMatchObject({ status: "pass", judged: 2 });
  });

  it("skip every clause no failure stands for when no case ran", () => {
    const none = fuzzOnlyReport("agent-cli", ["cli"], outcome([]), new Date(), []);
    expect(none.clauses.every((c) => c.status === "skip" && c.reason === "no case was run")).toBe(true);
  });
});

describe("mergeFuzz: fuzzing folded into a run's results", () => {
  const run = reportOf([result(ONE_TERMINAL, "pass", 4), result(TEXT_BLOCKS, "not-applicable", 0, "no turn streamed content_block events"), result(ERROR_CODE, "skip", 0, "the basic scenario did not run"), result(STREAMED, "pass", 2)], { protocol: "agent-cli" });

  it("adds the sessions' judgements to what the fixed suite judged, not the number of sessions", () => {
    const merged = mergeFuzz(run, outcome([session(2), session(3)]));
    expect(clause(merged, ONE_TERMINAL)).toMatchObject({ status: "pass", judged: 9 });
    // The fixed suite judged it; the sessions did not: it passes on the fixed suite's judgements alone.
    expect(clause(merged, STREAMED)).toMatchObject({ status: "pass", judged: 2 });
    expect(clause(merged, TEXT_BLOCKS)).toMatchObject({ status: "not-applicable", judged: 0 });
  });

  it("passes a clause the fixed suite found nothing to judge when sessions judged it; keeps a fixed skip unless fuzzing failed it", () => {
    const streamed = [result(TEXT_BLOCKS, "pass", 5), result(ERROR_CODE, "pass", 1)];
    const merged = mergeFuzz(run, outcome([streamed]));
    expect(clause(merged, TEXT_BLOCKS)).toMatchObject({ status: "pass", judged: 5 });
    expect(clause(merged, ERROR_CODE)).toMatchObject({ status: "skip", reason: "the basic scenario did not run" });
    const failed = mergeFuzz(run, outcome([streamed], { failures: [{ clause: ERROR_CODE, finding: { clause: ERROR_CODE, message: "no code" }, seed: 1, path: "0", replay: { protocol: "agent-cli", steps: [] } }] }));
    expect(clause(failed, ERROR_CODE)).toMatchObject({ status: "fail", judged: 1, findings: [{ message: "no code", foundBy: "fuzz" }] });
  });

  it("keeps the fixed suite's time on a clause fuzzing also judged (JUnit testcase time)", () => {
    const timed = reportOf([{ ...result(ONE_TERMINAL, "pass", 4), durationMs: 1234 }], { protocol: "agent-cli" });
    expect(clause(mergeFuzz(timed, outcome([session(2)])), ONE_TERMINAL)).toMatchObject({ status: "pass", judged: 6, durationMs: 1234 });
  });

  it("passes nothing when the kit did not judge some sessions (cut)", () => {
    const merged = mergeFuzz(run, outcome([session(1)], { cut: "the CLI printed more than the kit records" }));
    expect(clause(merged, ONE_TERMINAL)).toMatchObject({ status: "skip", reason: "the CLI printed more than the kit records", judged: 0 });
  });
});

describe("a clause a generated case failed never passes", () => {
  it("fails with the case's finding when the campaign kept no failure for it (not shrunk, no replay file)", () => {
    const failing = [result(ONE_TERMINAL, "fail", 1), result(TEXT_BLOCKS, "not-applicable", 0, "no turn streamed content_block events")];
    const report = fuzzOnlyReport("agent-cli", ["cli"], outcome([session(2), failing]), new Date(), []);
    const r = clause(report, ONE_TERMINAL);
    expect(r?.status).toBe("fail");
    expect(r?.findings).toHaveLength(1);
    expect(r?.findings[0]?.message).toBe("wrong (found in 1 generated session of seed 1; the kit kept no shrunk case for it: run the campaign again to reproduce it)");
    expect(r?.findings[0]?.foundBy).toBe("fuzz");
  });

  it("takes the kept failure when there is one, and nothing from the tally beside it", () => {
    const failing = [result(ONE_TERMINAL, "fail", 1)];
    const kept = { clause: ONE_TERMINAL, finding: { clause: ONE_TERMINAL, message: "shrunk" }, seed: 1, path: "1", replay: { protocol: "agent-cli" as const, steps: [] } };
    const report = fuzzOnlyReport("agent-cli", ["cli"], outcome([session(2), failing], { failures: [kept] }), new Date(), []);
    expect(clause(report, ONE_TERMINAL)?.findings.map((f) => f.message)).toEqual(["shrunk"]);
  });
});

describe("ClauseTally", () => {
  it("keeps a bounded number of distinct reasons, the rest counted as another reason; the reason names the most given", () => {
    const tally = new ClauseTally([ERROR_CODE]);
    for (let i = 0; i < MAX_REASONS + 3; i++) tally.add([result(ERROR_CODE, "not-applicable", 0, `reason ${String(i).padStart(2, "0")}`)]);
    tally.add([result(ERROR_CODE, "not-applicable", 0, "reason 05")]);
    const count = tally.data().clauses[ERROR_CODE];
    expect(count?.unjudged).toHaveLength(MAX_REASONS + 1);
    // Most given first, then by text: the order does not depend on the order the cases ran in.
    expect(count?.unjudged.slice(0, 3)).toEqual([
      { outcome: "not-applicable", reason: "another reason", cases: 3 },
      { outcome: "not-applicable", reason: "reason 05", cases: 2 },
      { outcome: "not-applicable", reason: "reason 00", cases: 1 },
    ]);
    expect(tallyJudgement(count, "session")).toEqual({ outcome: "not-applicable", reason: `in every fuzzed session, one of: another reason; reason 05; reason 00; reason 01; or ${MAX_REASONS - 3} other reasons` });
  });
});

import { summarize } from "../core/report/judge.js";
import { makeRedactor, redactDeep } from "../core/report/redact.js";
import type { ClauseResult, CorpusSummary, Finding, RunReport } from "../core/report/types.js";
import type { CoverageSummary, FuzzFailure } from "./types.js";

export interface FuzzOutcome {
  /** Clauses the fuzzer judges on every case. */
  clauses: readonly string[];
  cases: number;
  calls: number;
  seed: number;
  failures: FuzzFailure[];
  /** What one case is: a provider request (with its control) or an agent-cli session. */
  unit: "request" | "session";
  /** Cases per kind and size bucket; absent when no case ran. */
  coverage?: CoverageSummary;
  /** --corpus: what replaying the saved cases found (before any case was generated), and the counts. */
  corpus?: { findings: Finding[]; summary: CorpusSummary };
  /** Why some cases were not judged (agent-cli sessions the kit ended for its output budget): no fuzzed clause passes. */
  cut?: string;
}

/**
 * Puts fuzz findings under their clauses (marked found by fuzzing, each with its replay
 * command), counts the fuzzed cases as judgements of clauses that held, and adds the
 * campaign's coverage (cases per kind and size bucket) as the report's fuzz section.
 */
export function mergeFuzz(report: RunReport, fuzz: FuzzOutcome, secrets: readonly string[] = []): RunReport {
  const fuzzed = new Set(fuzz.clauses);
  const clauses: ClauseResult[] = report.clauses.map((result) => {
    const replayed = fuzz.corpus?.findings.filter((f) => f.clause === result.id) ?? [];
    if (!fuzzed.has(result.id) || (fuzz.cases === 0 && replayed.length === 0)) return result;
    // Corpus findings first: the corpus ran before any case was generated.
    const found = [...replayed, ...fuzz.failures.filter((f) => f.clause === result.id).map((f) => ({
      ...f.finding,
      foundBy: "fuzz" as const,
      fuzzCase: { seed: f.seed, path: f.path, ...(f.file !== undefined ? { file: f.file } : {}) },
      ...(f.file !== undefined ? { reproduce: f.reproduce ?? `awp-conformance replay ${f.file}` } : {}),
    }))];
    if (found.length > 0) {
      const { reason: _reason, ...rest } = result;
      return { ...rest, status: "fail", judged: result.judged + fuzz.cases, findings: [...result.findings, ...found] };
    }
    // A case the kit did not judge could have failed the clause: it cannot pass.
    if (fuzz.cut !== undefined && result.status === "pass") return { ...result, status: "skip", reason: fuzz.cut, findings: [] };
    return result.status === "pass" || result.status === "fail" ? { ...result, judged: result.judged + fuzz.cases } : result;
  });
  const note = `Fuzzing: ${fuzz.cases} generated cases (${fuzz.calls} candidate calls or sessions), seed ${fuzz.seed}, ${fuzz.failures.length} shrunk failure(s).`;
  const corpus = fuzz.corpus?.summary;
  const corpusNotes = corpus === undefined ? [] : [`Corpus: ${corpus.replayed} saved case(s) replayed before generation (${corpus.failing} failing), ${corpus.saved} new case(s) kept.`, ...(corpus.cut !== undefined ? [`Corpus cut: ${corpus.cut}.`] : [])];
  const merged: RunReport = {
    ...report,
    clauses,
    summary: summarize(clauses, report.summary.deselected, { level: report.summary.level, stale: report.summary.stale }),
    notes: [...report.notes, note, ...(fuzz.cut !== undefined ? [`Fuzzing incomplete: ${fuzz.cut}.`] : []), ...corpusNotes],
    ...(fuzz.coverage !== undefined
      ? { fuzz: { seed: fuzz.seed, cases: fuzz.cases, calls: fuzz.calls, failures: fuzz.failures.length, unit: fuzz.unit, kinds: fuzz.coverage.kinds, sizes: fuzz.coverage.sizes, ...(fuzz.corpus !== undefined ? { corpus: fuzz.corpus.summary } : {}) } }
      : {}),
  };
  return redactDeep(merged, makeRedactor(secrets));
}

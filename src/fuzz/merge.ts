import { combineJudgements, summarize } from "../core/report/judge.js";
import { makeRedactor, redactDeep } from "../core/report/redact.js";
import type { Clause, ClauseResult, CorpusSummary, DifferentialSummary, Finding, Judgement, RunReport } from "../core/report/types.js";
import { judgedBy, tallyJudgement, type TallyData } from "./tally.js";
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
  /** What the generated cases made of each fuzzed clause (corpus replays add findings only); absent when fuzzing did not start. */
  tally?: TallyData;
  /** What the campaign saw that no fuzzed clause judges, for the report's notes. */
  notes?: string[];
  /** fuzz --against: where the candidate and the other provider answered differently. */
  differential?: DifferentialSummary;
}

/** Findings fuzzing adds to a clause: the corpus replays' first (they ran before any case was generated), then its kept failure (shrunk where the kit could). */
function fuzzFindings(id: string, fuzz: FuzzOutcome): Finding[] {
  const replayed = fuzz.corpus?.findings.filter((f) => f.clause === id) ?? [];
  const shrunk = fuzz.failures.filter((f) => f.clause === id).map((f): Finding => ({
    ...f.finding,
    foundBy: "fuzz",
    fuzzCase: { seed: f.seed, path: f.path, ...(f.file !== undefined ? { file: f.file } : {}) },
    ...(f.file !== undefined ? { reproduce: f.reproduce ?? `awp-conformance replay ${f.file}` } : {}),
  }));
  return [...replayed, ...shrunk];
}

function asJudgement(result: ClauseResult): Judgement {
  if (result.status === "pass" || result.status === "fail") return { outcome: "judged", judged: result.judged, findings: result.findings };
  return { outcome: result.status, reason: result.reason ?? "nothing to judge" };
}

/**
 * One fuzzed clause: the fixed suite's result (none in a fuzz-only run) folded with what the
 * fuzzed cases judged, as the judge folds any judgements: a finding fails it, a judgement
 * passes it, else it is skipped or not applicable for the reasons the cases gave. A clause the
 * fixed suite skipped stays skipped unless fuzzing failed it: fuzzing does not stand in for a
 * scenario the kit could not judge. With sessions the kit did not judge (cut), nothing passes,
 * and in a fuzz-only run every clause not failed is skipped for that reason.
 */
export function fuzzedResult(clause: Pick<Clause, "id" | "level" | "title">, fixed: ClauseResult | undefined, fuzz: FuzzOutcome): ClauseResult {
  const found = fuzzFindings(clause.id, fuzz);
  // A case that failed the clause fails it, whether or not its failure was kept as a shrunk (or replayable) one.
  const unkept = found.length === 0 ? unkeptFailure(clause.id, fuzz) : undefined;
  if (unkept !== undefined) found.push(unkept);
  const ran = (fuzz.tally?.cases ?? 0) > 0;
  if (fixed !== undefined && found.length === 0 && (!ran || fixed.status === "skip")) return fuzz.cut !== undefined && fixed.status === "pass" ? cutResult(fixed, fuzz.cut) : fixed;
  const own = tallyJudgement(fuzz.tally?.clauses[clause.id], fuzz.unit);
  const fuzzed: Judgement = found.length === 0 ? own : { outcome: "judged", judged: own.outcome === "judged" ? own.judged : 0, findings: found };
  const result = combineJudgements(clause, fixed === undefined ? [fuzzed] : [asJudgement(fixed), fuzzed]);
  // Fuzzing alone: a clause the judged sessions found nothing for, the cut ones could have judged.
  const cutShows = result.status === "pass" || (fixed === undefined && result.status !== "fail");
  return fuzz.cut !== undefined && cutShows ? cutResult(result, fuzz.cut) : result;
}

/**
 * The failure a generated case found for a clause when the campaign kept none for it (no shrunk
 * failure, no replay file): the tally's first finding, said to be so. The fuzzers keep one for
 * every failing clause; this is the floor under them, so a failed clause can never pass.
 */
function unkeptFailure(id: string, fuzz: FuzzOutcome): Finding | undefined {
  const count = fuzz.tally?.clauses[id];
  if (count === undefined || count.failed === 0 || count.finding === undefined) return undefined;
  const cases = `${count.failed} generated ${fuzz.unit}${count.failed === 1 ? "" : "s"}`;
  return { ...count.finding, foundBy: "fuzz", message: `${count.finding.message} (found in ${cases} of seed ${fuzz.seed}; the kit kept no shrunk case for it: run the campaign again to reproduce it)` };
}

/** A case the kit did not judge could have failed the clause: it cannot pass. */
function cutResult(result: ClauseResult, cut: string): ClauseResult {
  return { id: result.id, level: result.level, title: result.title, status: "skip", reason: cut, judged: 0, findings: [] };
}

/**
 * Adds a campaign's account to a report whose clauses already hold what fuzzing judged: the
 * notes, the fuzz section (cases per kind and size bucket, and the cases that judged each
 * fuzzed clause), the summary counted again; every string through the secret redactor.
 */
export function withFuzzSection(report: RunReport, fuzz: FuzzOutcome, secrets: readonly string[] = []): RunReport {
  const note = `Fuzzing: ${fuzz.cases} generated cases (${fuzz.calls} candidate calls or sessions), seed ${fuzz.seed}, ${fuzz.failures.length} failure(s) kept with a replay file (one per failing clause, shrunk where the kit could).`;
  const corpus = fuzz.corpus?.summary;
  const corpusNotes = corpus === undefined ? [] : [`Corpus: ${corpus.replayed} saved case(s) replayed before generation (${corpus.failing} failing), ${corpus.saved} new case(s) kept.`, ...(corpus.cut !== undefined ? [`Corpus cut: ${corpus.cut}.`] : [])];
  const merged: RunReport = {
    ...report,
    summary: summarize(report.clauses, report.summary.deselected, { level: report.summary.level, stale: report.summary.stale }),
    notes: [...report.notes, note, ...(fuzz.cut !== undefined ? [`Fuzzing incomplete: ${fuzz.cut}.`] : []), ...(fuzz.notes ?? []), ...corpusNotes],
    ...(fuzz.coverage !== undefined
      ? { fuzz: { seed: fuzz.seed, cases: fuzz.cases, calls: fuzz.calls, failures: fuzz.failures.length, unit: fuzz.unit, kinds: fuzz.coverage.kinds, sizes: fuzz.coverage.sizes, ...(fuzz.tally !== undefined ? { judgedBy: judgedBy(fuzz.tally) } : {}), ...(fuzz.corpus !== undefined ? { corpus: fuzz.corpus.summary } : {}) } }
      : {}),
  };
  return redactDeep(merged, makeRedactor(secrets));
}

/** A clause fuzzing also judged keeps the fixed suite's time (JUnit) and, passed by both, its pass evidence (--evidence all). */
function keepFixedParts(merged: ClauseResult, fixed: ClauseResult): ClauseResult {
  // The fixed suite's time stays with a clause fuzzing also judged (fuzzing's cases are not timed per clause).
  const timed = fixed.durationMs !== undefined && merged.judged > 0 && merged.durationMs === undefined ? { ...merged, durationMs: fixed.durationMs } : merged;
  return timed.status === "pass" && fixed.passEvidence !== undefined ? { ...timed, passEvidence: fixed.passEvidence } : timed;
}

/**
 * Puts what fuzzing judged into a run's report: each fuzzed clause folded with it (fuzz
 * findings marked found by fuzzing, each with its replay command), then the fuzz section.
 */
export function mergeFuzz(report: RunReport, fuzz: FuzzOutcome, secrets: readonly string[] = []): RunReport {
  const fuzzed = new Set(fuzz.clauses);
  const clauses = report.clauses.map((result) => (fuzzed.has(result.id) ? keepFixedParts(fuzzedResult(result, result, fuzz), result) : result));
  return withFuzzSection({ ...report, clauses }, fuzz, secrets);
}

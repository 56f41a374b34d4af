import { sumReasons, unjudgedJudgement } from "./fuzz-judged.js";
import type { ClauseResult, CorpusSummary, CoverageCount, CoverageDimension, Finding, FuzzSummary, JudgedBy, UnjudgedReason } from "./types.js";

/**
 * The fuzz side of merging shard reports: the shards ran slices of one seed's cases, so their
 * coverage adds up to the unsharded campaign's; each shard shrank the first failure of each
 * clause in its slice, and the unsharded run would have shrunk only the first of them all.
 */

/** The index of the generated case a fuzz finding was found at (the first number of its path), or undefined. */
export function caseIndex(f: Finding): number | undefined {
  if (f.fuzzCase === undefined || f.fuzzCase.corpus === true) return undefined;
  const first = Number(f.fuzzCase.path.split(":")[0]);
  return Number.isInteger(first) && first >= 0 ? first : undefined;
}

/**
 * Keeps, of the generated-case failures of one clause, the one found at the lowest case
 * index: the one an unsharded run with the same seed finds and shrinks. Other findings
 * (fixed scenarios, corpus replays) stay as they are, in order.
 */
export function firstFuzzFailure(findings: readonly Finding[]): Finding[] {
  let first: Finding | undefined;
  for (const f of findings) {
    const index = caseIndex(f);
    if (index !== undefined && (first === undefined || index < (caseIndex(first) as number))) first = f;
  }
  return findings.filter((f) => caseIndex(f) === undefined || f === first);
}

function sumCounts(lists: readonly (readonly CoverageCount[])[]): CoverageCount[] {
  const sums = new Map<string, number>();
  for (const list of lists) for (const { name, count } of list) sums.set(name, (sums.get(name) ?? 0) + count);
  return [...sums].map(([name, count]) => ({ name, count }));
}

function sumDimensions(lists: readonly (readonly CoverageDimension[])[]): CoverageDimension[] {
  const byName = new Map<string, { of: string; buckets: CoverageCount[][] }>();
  for (const list of lists) {
    for (const d of list) {
      const entry = byName.get(d.name) ?? { of: d.of, buckets: [] };
      entry.buckets.push(d.buckets);
      byName.set(d.name, entry);
    }
  }
  return [...byName].map(([name, { of, buckets }]) => ({ name, of, buckets: sumCounts(buckets) }));
}

function sumCorpus(parts: readonly CorpusSummary[]): CorpusSummary | undefined {
  if (parts.length === 0) return undefined;
  const cuts = [...new Set(parts.flatMap((p) => (p.cut !== undefined ? [p.cut] : [])))];
  return {
    replayed: parts.reduce((n, p) => n + p.replayed, 0),
    failing: parts.reduce((n, p) => n + p.failing, 0),
    saved: parts.reduce((n, p) => n + p.saved, 0),
    ...(cuts.length > 0 ? { cut: cuts.join("; ") } : {}),
  };
}

/** The shards' cases that judged each fuzzed clause, summed; for a clause none judged, their reasons summed. */
function sumJudgedBy(lists: readonly (readonly JudgedBy[])[]): JudgedBy[] {
  const byName = new Map<string, { count: number; unjudged: UnjudgedReason[] }>();
  for (const list of lists) {
    for (const e of list) {
      const sum = byName.get(e.name) ?? { count: 0, unjudged: [] };
      byName.set(e.name, { count: sum.count + e.count, unjudged: sumReasons(sum.unjudged, e.unjudged ?? []) });
    }
  }
  return [...byName].map(([name, { count, unjudged }]) => ({ name, count, ...(count === 0 && unjudged.length > 0 ? { unjudged } : {}) }));
}

/**
 * A fuzzed clause no case of any shard judged, worded over the whole campaign (the shards'
 * reasons summed) as the unsharded run words it; undefined unless every shard that ran cases
 * gave its clause the reason its own cases gave (not a halt, a cut or a fixed scenario's).
 */
export function campaignUnjudged(id: string, results: readonly ClauseResult[], parts: readonly (FuzzSummary | undefined)[], merged: FuzzSummary | undefined): { status: "skip" | "not-applicable"; reason: string } | undefined {
  const entry = merged?.judgedBy?.find((e) => e.name === id);
  if (merged === undefined || entry === undefined || entry.count > 0) return undefined;
  const own = results.every((r, i) => {
    const part = parts[i];
    if (part?.judgedBy === undefined) return false;
    // A shard that ran no case (an empty slice) says nothing about the cases.
    if (part.cases === 0) return true;
    const mine = unjudgedJudgement(part.judgedBy.find((e) => e.name === id)?.unjudged ?? [], part.unit);
    return r.status === mine.outcome && r.reason === mine.reason;
  });
  if (!own) return undefined;
  const whole = unjudgedJudgement(entry.unjudged ?? [], merged.unit);
  return { status: whole.outcome, reason: whole.reason };
}

/** The shards' fuzz sections summed: cases, calls, coverage, the cases that judged each clause, and corpus; failures counted on the merged clauses. */
export function mergeFuzzSummaries(parts: readonly FuzzSummary[], clauses: readonly ClauseResult[]): FuzzSummary | undefined {
  const first = parts[0];
  if (first === undefined) return undefined;
  const corpus = sumCorpus(parts.flatMap((p) => (p.corpus !== undefined ? [p.corpus] : [])));
  return {
    seed: first.seed,
    cases: parts.reduce((n, p) => n + p.cases, 0),
    calls: parts.reduce((n, p) => n + p.calls, 0),
    failures: clauses.reduce((n, c) => n + c.findings.filter((f) => caseIndex(f) !== undefined).length, 0),
    unit: first.unit,
    kinds: sumCounts(parts.map((p) => p.kinds)),
    sizes: sumDimensions(parts.map((p) => p.sizes)),
    ...(parts.some((p) => p.judgedBy !== undefined) ? { judgedBy: sumJudgedBy(parts.map((p) => p.judgedBy ?? [])) } : {}),
    ...(corpus !== undefined ? { corpus } : {}),
  };
}

/** The note a fuzzing run adds, for the merged campaign. */
export function mergedFuzzNotes(fuzz: FuzzSummary | undefined): string[] {
  if (fuzz === undefined) return [];
  const notes = [`Fuzzing: ${fuzz.cases} generated cases (${fuzz.calls} candidate calls or sessions), seed ${fuzz.seed}, ${fuzz.failures} failure(s) kept with a replay file (one per failing clause, shrunk where the kit could).`];
  const c = fuzz.corpus;
  if (c !== undefined) notes.push(`Corpus: ${c.replayed} saved case(s) replayed before generation (${c.failing} failing), ${c.saved} new case(s) kept.`);
  if (c?.cut !== undefined) notes.push(`Corpus cut: ${c.cut}.`);
  return notes;
}

/** Notes a fuzzing shard wrote about its own part (its counts, an empty slice), replaced by mergedFuzzNotes on the merged report. */
export const isFuzzNote = (note: string): boolean => /^(Fuzzing|Corpus|Corpus cut): |^Fuzzing could not start: this shard holds none/.test(note);

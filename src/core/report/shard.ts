import { KitError } from "../errors.js";
import { summarize } from "./judge.js";
import type { ClauseResult, Finding, RunReport } from "./types.js";

/**
 * Sharding: `--shard K/N` runs the K-th of N deterministic parts of a run, so N CI runners
 * together do the work of one run, and `awp-conformance merge` combines their reports.
 * What a part is depends on the plan (provider units, agent-cli scenarios, fuzz case
 * ranges); this file holds what every plan shares.
 */

/** One shard of a run: `index` of `count`, both from 1. */
export interface Shard {
  index: number;
  count: number;
}

/** The most shards a run may be split into (a CI matrix is far smaller). */
export const MAX_SHARDS = 256;

/** Reads `K/N` (1 <= K <= N <= 256, integers). A malformed value is a usage error with one clear line. */
/** --shard as given (K/N), read: undefined when not given. */
export function shardOf(args: { shard?: unknown }): Shard | undefined {
  return args.shard === undefined ? undefined : parseShard(String(args.shard));
}

export function parseShard(text: string): Shard {
  const match = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(text);
  const usage = (why: string): KitError => new KitError("usage", `--shard ${JSON.stringify(text)}: ${why}; give K/N with whole numbers 1 <= K <= N <= ${MAX_SHARDS}, e.g. --shard 2/4`);
  if (match === null) throw usage("not of the form K/N");
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw usage(`N must be 1 to ${MAX_SHARDS}`);
  if (index < 1 || index > count) throw usage(`K must be 1 to N (${count})`);
  return { index, count };
}

/** The shard that runs the unit at `position` (0-based) of a plan's ordered units: round-robin. */
export function shardOfPosition(position: number, count: number): number {
  return (position % count) + 1;
}

/**
 * The contiguous slice of `total` case indices shard K of N runs: [from, to). The slices are
 * as equal as they can be (the first `total % N` are one longer) and together cover 0..total.
 */
export function caseRange(total: number, shard: Shard): { from: number; to: number } {
  const base = Math.floor(total / shard.count);
  const longer = total % shard.count;
  const from = (shard.index - 1) * base + Math.min(shard.index - 1, longer);
  return { from, to: from + base + (shard.index <= longer ? 1 : 0) };
}

/** What makes two findings the same: everything but their evidence, wire log and timing. */
export function findingKey(f: Finding): string {
  return JSON.stringify([f.clause, f.requestId ?? "", f.scenario ?? "", f.message, f.expected ?? "", f.seen ?? "", f.foundBy ?? "scenario"]);
}

/** `all` less one occurrence of each finding in `less` (a multiset difference by findingKey). */
export function withoutFindings(all: readonly Finding[], less: readonly Finding[]): Finding[] {
  const counts = new Map<string, number>();
  for (const f of less) counts.set(findingKey(f), (counts.get(findingKey(f)) ?? 0) + 1);
  return all.filter((f) => {
    const key = findingKey(f);
    const n = counts.get(key) ?? 0;
    if (n === 0) return true;
    counts.set(key, n - 1);
    return false;
  });
}

/** How a shard decides what it reports about each clause. */
export interface ShardView {
  shard: Shard;
  /** True when this shard is the clause's home: the one whose part holds what the clause is judged on (or, unjudged, why not). */
  home(id: string): boolean;
  /** Clauses judged on facts every shard holds alike (the launch facts): only the home shard reports them. */
  factual?(id: string): boolean;
}

/** The reason a shard gives, in its own report, for a clause it leaves to the others. */
export function elsewhereReason(shard: Shard): string {
  return `shard ${shard.index}/${shard.count}: judged in another shard; run every shard and combine the reports with awp-conformance merge`;
}

/**
 * What one shard reports, from the judgement of everything it sent (`full`) and of the
 * requests it sent only as context, for its own requests to build on (`context`: requests
 * another shard owns and judges, e.g. describe before the invocations). A clause judged on
 * this shard's own requests is reported (findings on context requests taken out, so no
 * finding is counted twice); a clause left unjudged is reported only by its home shard,
 * whose part decides why. The others are marked elsewhere: status skip with the elsewhere
 * reason, dropped from the report by dropElsewhere once fuzzing has added to it.
 */
export function shardResults(full: readonly ClauseResult[], context: readonly ClauseResult[] | undefined, view: ShardView): { results: ClauseResult[]; elsewhere: string[] } {
  const byId = new Map((context ?? []).map((r) => [r.id, r]));
  const elsewhere: string[] = [];
  const away = (r: ClauseResult): ClauseResult => {
    elsewhere.push(r.id);
    return { id: r.id, level: r.level, title: r.title, status: "skip", reason: elsewhereReason(view.shard), judged: 0, findings: [] };
  };
  const results = full.map((r): ClauseResult => {
    const home = view.home(r.id);
    if (view.factual?.(r.id) === true) return home ? r : away(r);
    if (r.status !== "pass" && r.status !== "fail") return home ? r : away(r);
    const c = byId.get(r.id);
    if (c === undefined || (c.status !== "pass" && c.status !== "fail")) return r;
    const findings = withoutFindings(r.findings, c.findings);
    const judged = Math.max(0, r.judged - c.judged);
    if (judged === 0 && findings.length === 0) return away(r);
    return { ...r, status: findings.length > 0 ? "fail" : "pass", judged, findings };
  });
  return { results, elsewhere };
}

/** The results less the clauses left to other shards, unless something this shard ran since (fuzzing) failed them. */
export function dropElsewhere(results: readonly ClauseResult[], elsewhere: readonly string[]): ClauseResult[] {
  const away = new Set(elsewhere);
  return results.filter((r) => !away.has(r.id) || r.status === "fail");
}

/**
 * A shard's report as it is written: the clauses left to other shards dropped (unless fuzzing
 * in this shard failed them since), the summary counted again on what is left.
 */
export function finishShard(report: RunReport, elsewhere: readonly string[]): RunReport {
  const clauses = dropElsewhere(report.clauses, elsewhere);
  const summary = summarize(clauses, report.summary.deselected, { level: report.summary.level, stale: report.summary.stale });
  const shard = report.shard === undefined ? undefined : { ...report.shard, elsewhere: report.clauses.length - clauses.length };
  return { ...report, clauses, summary, ...(shard !== undefined ? { shard } : {}) };
}

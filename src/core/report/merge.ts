import { loadCatalogue } from "../clauses/catalogue.js";
import { KitError } from "../errors.js";
import { summarize } from "./judge.js";
import { campaignUnjudged, firstFuzzFailure, isFuzzNote, mergedFuzzNotes, mergeFuzzSummaries } from "./merge-fuzz.js";
import type { ClauseResult, FuzzSummary, RunReport } from "./types.js";

/**
 * `awp-conformance merge`: the shard reports of one run (--shard K/N, K = 1..N) combined
 * into the report the unsharded run would have written. Pure: reading the reports and
 * copying replay files is the command's part.
 */

/** One shard report and where it came from (for messages). */
export interface ShardReport {
  report: RunReport;
  source: string;
}

const usage = (message: string): KitError => new KitError("usage", message);

/** Options a report records that differ from shard to shard by design: what each ran. */
const PER_SHARD_OPTIONS: readonly string[] = ["calls", "scenarios", "fuzz"];

function shardName(r: ShardReport): string {
  return `${r.source} (shard ${r.report.shard?.index}/${r.report.shard?.count})`;
}

/** The one value every report has for `what`, or a usage error naming two that differ. */
function same(reports: readonly ShardReport[], what: string, of: (r: RunReport) => unknown): void {
  const [first, ...rest] = reports;
  if (first === undefined) return;
  const want = JSON.stringify(of(first.report));
  const other = rest.find((r) => JSON.stringify(of(r.report)) !== want);
  if (other !== undefined) throw usage(`cannot merge: ${shardName(first)} and ${shardName(other)} differ in ${what} (${want} and ${JSON.stringify(of(other.report))}); merge the shards of one run only`);
}

/** Every report is a shard of the same run, each shard is there once, none is missing. */
export function checkShards(reports: readonly ShardReport[]): number {
  if (reports.length === 0) throw usage("give the report folders of every shard");
  for (const r of reports) {
    if (r.report.shard === undefined) throw usage(`cannot merge: ${r.source} is not a shard report (it was not run with --shard K/N)`);
  }
  same(reports, "the shard count N", (r) => r.shard?.count);
  same(reports, "the protocol", (r) => r.protocol);
  same(reports, "the mode", (r) => r.mode ?? null);
  same(reports, "the kit version", (r) => r.tool.version);
  same(reports, "the candidate", (r) => r.candidate);
  same(reports, "the clause selection", (r) => r.selection);
  same(reports, "the counted level", (r) => r.summary.level);
  same(reports, "the run options", (r) => Object.fromEntries(Object.entries(r.options).filter(([key]) => !PER_SHARD_OPTIONS.includes(key))));
  same(reports, "the fuzz seed", (r) => r.fuzz?.seed ?? (r.options.fuzz as { seed?: unknown } | undefined)?.seed ?? null);
  const count = reports[0]?.report.shard?.count ?? 0;
  const seen = new Map<number, ShardReport>();
  for (const r of reports) {
    const index = r.report.shard?.index ?? 0;
    const before = seen.get(index);
    if (before !== undefined) throw usage(`cannot merge: shard ${index}/${count} is given twice (${before.source} and ${r.source})`);
    seen.set(index, r);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw usage(`cannot merge: shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} ${missing.length > 1 ? "are" : "is"} missing (got ${[...seen.keys()].sort((a, b) => a - b).join(", ")}): give the report folder of every shard`);
  return count;
}

/**
 * One clause's results from the shards that reported it: a failure anywhere fails it
 * (findings concatenated, only the first generated fuzz failure kept); else a pass anywhere
 * passes it; else skipped only if every shard skipped it, not applicable otherwise, for
 * the shards' reasons: one when they agree, else each with the shard (`shards`, in the order
 * of `results`) that gave it, so the reason stays true of the sessions or requests it is about.
 * Expectation marks are left to the merge's own --expected-failures and --flaky.
 */
export function combineResults(results: readonly ClauseResult[], shards: readonly string[] = []): ClauseResult {
  const first = results[0];
  if (first === undefined) throw new KitError("kit_bug", "combineResults needs a result");
  const base = { id: first.id, level: first.level, title: first.title };
  const judged = results.reduce((n, r) => n + r.judged, 0);
  // The shards' times for the clause add up, as their calls and scenarios do.
  const timed = results.filter((r) => r.durationMs !== undefined);
  const time = timed.length > 0 ? { durationMs: timed.reduce((n, r) => n + (r.durationMs ?? 0), 0) } : {};
  if (results.some((r) => r.status === "fail")) return { ...base, status: "fail", judged, findings: firstFuzzFailure(results.flatMap((r) => r.findings)), ...time };
  if (results.some((r) => r.status === "pass")) {
    // --evidence all: the first shard's pass evidence stands for the merged pass.
    const evidence = results.find((r) => r.status === "pass" && r.passEvidence !== undefined)?.passEvidence;
    return { ...base, status: "pass", judged, findings: [], ...time, ...(evidence !== undefined ? { passEvidence: evidence } : {}) };
  }
  const skipped = results.every((r) => r.status === "skip");
  const status = skipped ? "skip" : "not-applicable";
  const given = results.flatMap((r, i) => (r.status === status && r.reason !== undefined ? [{ reason: r.reason, shard: shards[i] }] : []));
  const distinct = unique(given.map((g) => g.reason));
  const reason = distinct.length <= 1 || given.some((g) => g.shard === undefined) ? given[0]?.reason : given.map((g) => `${g.shard}: ${g.reason}`).join("; ");
  return { ...base, status, ...(reason !== undefined ? { reason } : {}), judged: 0, findings: [] };
}

function catalogueOrder(protocol: RunReport["protocol"]): string[] {
  return protocol === "policy-test" ? [] : loadCatalogue(protocol).map((c) => c.id);
}

const unique = (items: readonly string[]): string[] => [...new Set(items)];

/** Combines the shard reports of one run (checked by checkShards) into one report, counted again as `run` counts. */
export function merge(reports: readonly ShardReport[]): RunReport {
  const count = checkShards(reports);
  const ordered = [...reports].sort((a, b) => (a.report.shard?.index ?? 0) - (b.report.shard?.index ?? 0)).map((r) => r.report);
  const first = ordered[0] as RunReport;
  const byId = new Map<string, { results: ClauseResult[]; shards: string[]; fuzz: (FuzzSummary | undefined)[] }>();
  for (const report of ordered) {
    for (const r of report.clauses) {
      const entry = byId.get(r.id) ?? { results: [], shards: [], fuzz: [] };
      entry.results.push(r);
      entry.shards.push(`shard ${report.shard?.index}/${count}`);
      entry.fuzz.push(report.fuzz);
      byId.set(r.id, entry);
    }
  }
  const order = catalogueOrder(first.protocol).filter((id) => byId.has(id));
  const ids = [...order, ...[...byId.keys()].filter((id) => !order.includes(id))];
  const combined = ids.map((id) => combineResults(byId.get(id)?.results ?? [], byId.get(id)?.shards));
  const fuzz = mergeFuzzSummaries(ordered.flatMap((r) => (r.fuzz !== undefined ? [r.fuzz] : [])), combined);
  // A fuzzed clause no shard's cases judged says why over the whole campaign, as the unsharded run does.
  const clauses = combined.map((c) => {
    const entry = byId.get(c.id);
    const campaign = c.status === "skip" || c.status === "not-applicable" ? campaignUnjudged(c.id, entry?.results ?? [], entry?.fuzz ?? [], fuzz) : undefined;
    return campaign === undefined ? c : { ...c, ...campaign };
  });
  const halted = unique(ordered.flatMap((r) => (r.halted !== undefined ? [r.halted] : [])));
  const dialect = ordered.find((r) => r.shard?.units?.includes("matrix") === true && r.digestDialect !== undefined)?.digestDialect ?? ordered.find((r) => r.digestDialect !== undefined)?.digestDialect;
  const notes = [
    ...unique(ordered.flatMap((r) => r.notes)).filter((n) => !isFuzzNote(n)),
    ...mergedFuzzNotes(fuzz),
    `Merged from ${count} shard reports.`,
  ];
  const { shard: _shard, fuzz: _fuzz, halted: _halted, digestDialect: _dialect, ...rest } = first;
  return {
    ...rest,
    startedAt: ordered.map((r) => r.startedAt).sort()[0] ?? first.startedAt,
    endedAt: ordered.map((r) => r.endedAt).sort().at(-1) ?? first.endedAt,
    options: { ...first.options, ...(typeof first.options.calls === "number" ? { calls: ordered.reduce((n, r) => n + (typeof r.options.calls === "number" ? r.options.calls : 0), 0) } : {}), shards: count },
    clauses,
    summary: summarize(clauses, first.summary.deselected, { level: first.summary.level }),
    notes,
    ...(halted.length > 0 ? { halted: halted.join("; ") } : {}),
    ...(dialect !== undefined ? { digestDialect: dialect } : {}),
    ...(fuzz !== undefined ? { fuzz } : {}),
  };
}

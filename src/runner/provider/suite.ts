import { loadCatalogue } from "../../core/clauses/catalogue.js";
import { makeSelector, type Selection } from "../../core/clauses/patterns.js";
import { TIGHT_BUDGET_SLACK_MS } from "../../core/provider/checks/budget.js";
import { HOSTILE_KINDS } from "../../core/provider/checks/robustness.js";
import { judgeProviderTranscript } from "../../core/provider/judge.js";
import { buildReport } from "../../core/report/build.js";
import type { ClauseResult, RunReport } from "../../core/report/types.js";
import { judgedCounts, withClauseTimes } from "../../core/report/timing.js";
import type { HostileKind, ProviderTranscript } from "../../core/provider/types.js";
import { DEFAULT_RUN_TIMEOUT_MS, runTimeoutReason } from "../../core/run-timeout.js";
import { interruptReason } from "../../core/interrupt.js";
import { PROVIDER_UNITS, providerPurposeUnit, providerShardView, providerUnits, type ProviderUnit } from "../../core/provider/shard.js";
import { shardResults, type Shard } from "../../core/report/shard.js";
import { recordProviderSession, type ProviderSuiteOptions, type RequestGroup } from "./driver.js";
import { DEFAULT_PROVIDER_JOBS } from "./jobs.js";
import { warmLaunchers } from "../launcher/client.js";
import { nativeChosen } from "../native/select.js";
import type { EvidenceLevel } from "../../core/report/pass-evidence.js";
import { providerPassEvidence } from "./pass-evidence.js";

export interface RunProviderSuiteOptions extends ProviderSuiteOptions {
  selection?: Selection;
  /** --shard K/N: run only this shard's units of the suite (see core/provider/shard.ts). */
  shard?: Shard;
  /** --evidence all: passes keep the wire log of the request they were judged on. */
  evidence?: EvidenceLevel;
}

/** The request groups a shard's units send (the invocations up to the first accepted one also serve whitespace and hostile as context). */
function groupsOfUnits(units: ReadonlySet<ProviderUnit>): Record<RequestGroup, boolean> {
  const has = (unit: ProviderUnit): boolean => units.has(unit);
  return {
    invalidConfigs: has("config"),
    unknownKey: has("config"),
    wrongTypes: has("config"),
    invocations: has("matrix") || has("whitespace") || has("hostile"),
    matrix: has("matrix"),
    dialects: has("matrix"),
    tightBudget: has("matrix"),
    whitespace: has("whitespace"),
    hostile: has("hostile"),
    freshDir: has("fresh"),
  };
}

/** Both: a group goes when the selection needs it and the shard runs it. */
function both(a: Record<RequestGroup, boolean>, b: Record<RequestGroup, boolean>): Record<RequestGroup, boolean> {
  return Object.fromEntries(Object.entries(a).map(([group, value]) => [group, value && b[group as RequestGroup]])) as Record<RequestGroup, boolean>;
}

/** Requests are only worth sending when a selected clause will judge them (so --clause runs faster). */
function groupsFor(selected: (id: string) => boolean): Record<RequestGroup, boolean> {
  // The look for leftovers follows every call, whichever requests are sent.
  const ids = loadCatalogue("provider").map((c) => c.id).filter((id) => selected(id) && id !== "provider/transport/no-leftover-processes");
  const any = (...prefixes: string[]): boolean => ids.some((id) => prefixes.some((p) => id.startsWith(p)));
  return {
    invalidConfigs: any("provider/validate-config/rejects-invalid-config"),
    unknownKey: any("provider/validate-config/rejects-unknown-setting"),
    wrongTypes: any("provider/validate-config/rejects-wrong-typed-setting"),
    invocations: any("provider/invoke/", "provider/robustness/", "provider/transport/", "provider/envelope/"),
    matrix: any("provider/invoke/", "provider/transport/", "provider/envelope/"),
    dialects: any("provider/invoke/digest-dialects"),
    tightBudget: any("provider/transport/tight-budget"),
    hostile: any("provider/robustness/"),
    whitespace: any("provider/transport/request-whitespace"),
    freshDir: any("provider/describe/leaves-no-files", "provider/describe/same-answer-twice"),
  };
}

/**
 * The hostile probes worth sending: those of the selected rejects-<kind> clauses, or every kind
 * when none is selected (no-hang and no-signal-death judge whatever probes were sent).
 */
function hostileKindsFor(selected: (id: string) => boolean): readonly HostileKind[] {
  const kinds = HOSTILE_KINDS.filter((kind) => selected(`provider/robustness/rejects-${kind}`));
  return kinds.length > 0 ? kinds : HOSTILE_KINDS;
}

/**
 * Each judged clause gets the time of the calls that judged it: the transcript is judged one
 * part of the suite at a time, and with that part left out (the units a shard runs, whose calls
 * build on each other); a clause takes the summed call time of each part that judged it
 * (core/report/timing.ts).
 */
function withCallTimes<J extends { results: ClauseResult[] }>(judged: J, transcript: ProviderTranscript, selected: (id: string) => boolean): J {
  const counts = (exchanges: ProviderTranscript["exchanges"]): Map<string, number> => judgedCounts(judgeProviderTranscript({ ...transcript, exchanges }, selected).results);
  const parts = PROVIDER_UNITS.map((unit) => {
    const mine = transcript.exchanges.filter((e) => providerPurposeUnit(e.purpose) === unit);
    const ms = mine.reduce((sum, e) => sum + e.outcome.durationMs, 0);
    return { ms, alone: counts(mine), without: counts(transcript.exchanges.filter((e) => providerPurposeUnit(e.purpose) !== unit)) };
  });
  const none = counts([]);
  return { ...judged, results: withClauseTimes(judged.results, parts, none) };
}

export interface ProviderSuiteRun {
  report: RunReport;
  transcript: ProviderTranscript;
  /** --shard: the clauses this shard leaves to the others (marked skip in the report until dropElsewhere). */
  elsewhere: string[];
}

/** Runs the whole aw-provider/v1alpha1 suite against one candidate and judges it. */
export async function runProviderSuite(options: RunProviderSuiteOptions): Promise<ProviderSuiteRun> {
  // The suite's first batch goes --jobs at once: its launchers start while the kit prepares it
  // (none where the native spawner makes the calls).
  if (!nativeChosen()) warmLaunchers(options.jobs ?? DEFAULT_PROVIDER_JOBS);
  const selection = options.selection ?? { clause: [], skip: [] };
  const selected = makeSelector(selection);
  const startedAt = new Date();
  const units = options.shard === undefined ? undefined : new Set(providerUnits(options.shard));
  const wanted = { ...groupsFor(selected), ...options.send };
  const send = units === undefined ? wanted : both(wanted, groupsOfUnits(units));
  const transcript = await recordProviderSession({ hostileKinds: hostileKindsFor(selected), ...options, send });
  const endedAt = new Date();
  const judged = withCallTimes(judgeProviderTranscript(transcript, selected), transcript, selected);
  const { deselected } = judged;
  // Cut short, the kit cannot tell what the unsent requests would have shown: every skip says so.
  const { runTimedOut: cut, interrupted: signal } = transcript.context;
  const where = `after ${transcript.exchanges.length} calls, before the kit sent every request`;
  const halted = signal !== undefined ? interruptReason(signal, where) : cut === undefined ? undefined : runTimeoutReason(cut, where);
  let results = halted === undefined ? judged.results : judged.results.map((r) => (r.status === "skip" ? { ...r, reason: halted } : r));
  let elsewhere: string[] = [];
  if (options.shard !== undefined && units !== undefined) {
    // What the requests sent only as context (owned by another shard) show is judged there: take it out here.
    const context = judgeProviderTranscript({ ...transcript, exchanges: transcript.exchanges.filter((e) => !units.has(providerPurposeUnit(e.purpose))) }, selected);
    ({ results, elsewhere } = shardResults(results, context.results, providerShardView(options.shard)));
    if (units.size === 0) transcript.context.notes.push(`Shard ${options.shard.index}/${options.shard.count} ran no part of the provider suite: it has ${PROVIDER_UNITS.length} parts, dealt to the first shards.`);
  }
  const evidence = options.evidence === "all" ? providerPassEvidence(results, transcript) : undefined;
  if (evidence !== undefined) results = evidence.results;
  const report = buildReport({
    protocol: "provider",
    argv: options.argv,
    startedAt,
    endedAt,
    options: {
      budgetMs: options.budgetMs ?? 5000,
      timeoutMs: options.timeoutMs ?? null,
      budgetSlackMs: options.budgetSlackMs ?? TIGHT_BUDGET_SLACK_MS,
      configGiven: options.config !== undefined,
      invalidConfigs: options.invalidConfigs?.length ?? 0,
      calls: transcript.exchanges.length,
      runTimeoutMs: options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
    },
    selection,
    results,
    deselected,
    notes: [...transcript.context.notes, ...(evidence?.notes ?? [])],
    secrets: transcript.context.secrets,
    ...(halted !== undefined ? { halted } : {}),
  });
  const dialect = transcript.context.digestDialect;
  if (dialect !== undefined) report.digestDialect = { bound: dialect.bound, accepted: [...dialect.accepted] };
  if (units !== undefined) report.shard = { index: options.shard?.index ?? 1, count: options.shard?.count ?? 1, units: [...units], elsewhere: elsewhere.length };
  return { report, transcript, elsewhere };
}

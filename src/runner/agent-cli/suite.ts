import type { AgentRun } from "../../core/agent-cli/checks/helpers.js";
import { launchRefusal, secretArgIndexes } from "../../core/agent-cli/checks/launch.js";
import { judgeAgentRun } from "../../core/agent-cli/judge.js";
import { SECRET_ENV_NAME } from "../../core/agent-cli/launch.js";
import { SCENARIO_NAMES, SCENARIOS, type ScenarioName } from "../../core/agent-cli/scenarios.js";
import { DEFAULT_OUTPUT_BUDGET_MIB } from "../../core/agent-cli/types.js";
import { loadCatalogue } from "../../core/clauses/catalogue.js";
import { makeSelector, type Selection } from "../../core/clauses/patterns.js";
import { buildReport } from "../../core/report/build.js";
import type { ClauseResult, RunReport } from "../../core/report/types.js";
import { shardOfPosition, shardResults, type Shard, type ShardView } from "../../core/report/shard.js";
import { judgedCounts, withClauseTimes } from "../../core/report/timing.js";
import type { Transcript } from "../../core/agent-cli/types.js";
import { recordAgentCliRun, type AgentCliSuiteOptions } from "./driver.js";
import type { EvidenceLevel } from "../../core/report/pass-evidence.js";
import { agentPassEvidence } from "./pass-evidence.js";

export interface RunAgentCliSuiteOptions extends AgentCliSuiteOptions {
  selection?: Selection;
  /** --shard K/N: run only this shard's scenarios (dealt round-robin in the kit's order). */
  shard?: Shard;
  /** --evidence all: passes keep the wire log of a session they were judged on. */
  evidence?: EvidenceLevel;
}

const judgesClause = (name: ScenarioName, id: string): boolean => SCENARIOS[name].judges.some((prefix) => id === prefix || id.startsWith(`${prefix}/`));

/**
 * How an agent-cli shard reports. The unit is the scenario (in the run's one mode): each has
 * its own processes and fixture, so every finding is on one shard's transcript. A clause's
 * home is the shard of the first scenario that judges it (the launch clauses, judged on the
 * launch facts every shard holds, and clauses no scenario of the run judges: shard 1).
 */
export function agentShardView(shard: Shard, ordered: readonly ScenarioName[]): ShardView {
  const homeOf = (id: string): number => {
    if (id.startsWith("agent-cli/launch/")) return 1;
    const at = ordered.findIndex((name) => judgesClause(name, id));
    return at < 0 ? 1 : shardOfPosition(at, shard.count);
  };
  return { shard, home: (id) => homeOf(id) === shard.index, factual: (id) => id.startsWith("agent-cli/launch/") };
}

/** Scenarios a selection needs: those that judge at least one selected clause. */
export function scenariosFor(selected: (id: string) => boolean): ScenarioName[] {
  const ids = loadCatalogue("agent-cli").map((c) => c.id).filter(selected);
  return SCENARIO_NAMES.filter((name) => SCENARIOS[name].judges.some((prefix) => ids.some((id) => id === prefix || id.startsWith(`${prefix}/`))));
}

/**
 * A --scenario subset is the user's own deselection, like --skip: clauses that no chosen
 * scenario judges and that ended unjudged leave the results (a judged one stays).
 */
export function withinScenarios(judged: { results: ClauseResult[]; deselected: number }, scenarios: readonly ScenarioName[]): { results: ClauseResult[]; deselected: number } {
  const covered = (id: string): boolean => id.startsWith("agent-cli/launch/") || scenarios.some((name) => SCENARIOS[name].judges.some((prefix) => id === prefix || id.startsWith(`${prefix}/`)));
  const results = judged.results.filter((r) => r.status === "pass" || r.status === "fail" || covered(r.id));
  return { results, deselected: judged.deselected + judged.results.length - results.length };
}

/** The run's own keys (the model fixture's, the control plane's), as no report or transcript may show them. */
export function runKeys(run: AgentRun): string[] {
  return [run.token, run.managed?.token].filter((key): key is string => key !== undefined);
}

/** Values the report must never show: the fixture key, secret-looking prefix arguments and env values. */
export function secretsOf(run: AgentRun): string[] {
  const args = run.launch?.prefixArgs ?? [];
  // The same arguments the no-secrets-in-args clause flags, so a flagged value never shows in argv.
  const flagged = secretArgIndexes(args).map((i) => args[i] as string);
  const env = Object.entries(run.launch?.env ?? {}).filter(([name, value]) => SECRET_ENV_NAME.test(name) && value.length >= 4 && !value.includes("{{")).map(([, value]) => value);
  return [...runKeys(run), ...flagged, ...env];
}

/** A scenario's time: its last event, in ms since it started. */
const scenarioMs = (transcript: Transcript): number => transcript.events.reduce((end, event) => Math.max(end, event.t), 0);

/** Each judged clause gets the time of the scenarios that judged it (each scenario judged alone, and left out; core/report/timing.ts). */
function withScenarioTimes<J extends { results: ClauseResult[] }>(judged: J, run: AgentRun, selected: (id: string) => boolean): J {
  const counts = (transcripts: Transcript[]): Map<string, number> => judgedCounts(judgeAgentRun({ ...run, transcripts }, selected).results);
  const parts = run.transcripts.map((transcript) => ({ ms: scenarioMs(transcript), alone: counts([transcript]), without: counts(run.transcripts.filter((t) => t !== transcript)) }));
  const none = counts([]);
  return { ...judged, results: withClauseTimes(judged.results, parts, none) };
}

/** Runs the agent-cli suite against one candidate in one mode and judges it. */
export async function runAgentCliSuite(options: RunAgentCliSuiteOptions): Promise<{ report: RunReport; run: AgentRun; elsewhere: string[] }> {
  const selection = options.selection ?? { clause: [], skip: [] };
  const selected = makeSelector(selection);
  const needed = scenariosFor(selected);
  const refusal = launchRefusal(options.facts);
  const wanted = options.scenarios !== undefined ? options.scenarios.filter((s) => needed.includes(s)) : needed;
  const shard = options.shard;
  const mine = shard === undefined ? wanted : wanted.filter((_, position) => shardOfPosition(position, shard.count) === shard.index);
  const scenarios = refusal === undefined ? mine : [];
  const startedAt = new Date();
  const recorded = await recordAgentCliRun({ ...options, scenarios });
  const run: AgentRun = refusal === undefined ? recorded : { ...recorded, notLaunched: refusal };
  const endedAt = new Date();
  const judged = withScenarioTimes(judgeAgentRun(run, selected), run, selected);
  const within = options.scenarios !== undefined ? withinScenarios(judged, options.scenarios) : judged;
  const { deselected } = within;
  const sharded = shard === undefined ? { results: within.results, elsewhere: [] } : shardResults(within.results, undefined, agentShardView(shard, wanted));
  const { elsewhere } = sharded;
  const evidence = options.evidence === "all" ? agentPassEvidence(sharded.results, run) : undefined;
  const results = evidence?.results ?? sharded.results;
  const notes = [...judged.notes, ...(evidence?.notes ?? [])];
  const report = buildReport({
    protocol: "agent-cli",
    mode: run.mode,
    argv: [options.config.executable, ...options.config.prefixArgs],
    startedAt,
    endedAt,
    options: { mode: run.mode, model: options.config.model, scenarios, turnTimeoutMs: run.turnTimeoutMs, stallTimeoutMs: recorded.bounds.stallTimeoutMs, quietWindowMs: recorded.bounds.quietWindowMs, shutdownTimeoutMs: recorded.bounds.shutdownTimeoutMs, orderSkewMs: recorded.bounds.orderSkewMs, runTimeoutMs: recorded.runTimeoutMs, outputBudgetMib: options.outputBudgetMib ?? DEFAULT_OUTPUT_BUDGET_MIB, source: options.facts.source, fixtureToken: run.token !== undefined, managedTasks: run.managed?.setup !== undefined, ...(run.managed?.setup !== undefined ? { taskOutputLimit: run.managed.outputLimit, taskWaitSlackMs: run.managed.waitSlackMs } : {}) },
    selection,
    results,
    deselected,
    notes: refusal === undefined ? notes : [`${refusal}.`, ...notes],
    ...(judged.halted !== undefined ? { halted: judged.halted } : {}),
    secrets: secretsOf(run),
  });
  if (shard !== undefined) report.shard = { index: shard.index, count: shard.count, units: [...mine], elsewhere: elsewhere.length };
  return { report, run, elsewhere };
}

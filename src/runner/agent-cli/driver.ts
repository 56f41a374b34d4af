import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { AgentRun } from "../../core/agent-cli/checks/helpers.js";
import type { LaunchConfig, LaunchFacts } from "../../core/agent-cli/launch.js";
import { viewProcesses, userTurns } from "../../core/agent-cli/analysis.js";
import { DEFAULT_BOUNDS, FAILURE_PROBES, SCENARIO_NAMES, type KitBounds, type ScenarioName, type ScenarioStop } from "../../core/agent-cli/scenarios.js";
import { DEFAULT_OUTPUT_BUDGET_MIB, type Transcript } from "../../core/agent-cli/types.js";
import { DEFAULT_RUN_TIMEOUT_MS } from "../../core/run-timeout.js";
import { bridgeSetup, DEFAULT_TASK_OUTPUT_LIMIT, DEFAULT_TASK_WAIT_SLACK_MS, type BridgeSetup } from "../../core/agent-cli/managed-tasks.js";
import { newRunKeys, startScenarioFixtures, type RunKeys } from "./scenario-fixtures.js";
import { ScenarioContext, ScenarioStopped } from "./context.js";
import { RunControl } from "./run-control.js";
import { budgetLimits, OutputBudget } from "./output-budget.js";
import { SCENARIO_RUNNERS } from "./scenarios/index.js";

export interface AgentCliSuiteOptions {
  config: LaunchConfig;
  facts: LaunchFacts;
  scenarios?: readonly ScenarioName[];
  /** Bound of every wait for a turn's terminal event (default 30 s). */
  turnTimeoutMs?: number;
  /** Bound of the wait for a failure probe's failing turn (default 180 s). */
  stallTimeoutMs?: number;
  /** How long the basic scenario watches stdout after launch before its first line (default 3000 ms). */
  quietWindowMs?: number;
  /** How long after {"type":"shutdown"} the process may take to exit (default 1000 ms). */
  shutdownTimeoutMs?: number;
  /** How early the next turn's model request may be seen before this turn's terminal line and still count as in order (default 250 ms). */
  orderSkewMs?: number;
  /** HOME for the candidate (default: a fresh folder per scenario). */
  home?: string;
  /** Scenarios run at once, each with its own processes and model fixture (default 4); the failure probes run beside them. */
  jobs?: number;
  /** Bound of the whole run (default 15 min): reaching it stops every scenario and ends every process. */
  runTimeoutMs?: number;
  /** --output-budget: MiB of stdout recorded from all processes of the run (default 4, the kit's choice). */
  outputBudgetMib?: number;
  /** Environment of the launcher (default process.env). */
  launcherEnv?: Record<string, string | undefined>;
  /** --managed-tasks-opt-in: the env variable that opts the CLI into the managed-task bridge (default: found by name). */
  managedOptIn?: string;
  /** --task-output-limit (bytes) and --task-wait-slack (ms) of the managed-tasks clauses. */
  taskOutputLimit?: number;
  taskWaitSlackMs?: number;
  /** Each scenario as it ends (a scenario the run never started ends with no transcript). */
  onScenario?: (name: ScenarioName, transcript: Transcript | undefined, outcome: ScenarioOutcome) => void;
}

/** How one scenario went, for progress lines. */
export interface ScenarioOutcome {
  ms: number;
  /** User turns written, and those answered with a terminal event. */
  turns: number;
  answered: number;
  /** Set when the kit stopped the scenario early or never started it. */
  stop?: ScenarioStop;
}

function outcomeOf(transcript: Transcript, ms: number, stop: ScenarioStop | undefined): ScenarioOutcome {
  const turns = viewProcesses(transcript).flatMap(userTurns);
  return { ms, turns: turns.length, answered: turns.filter((t) => t.terminals.length > 0).length, ...(stop !== undefined ? { stop } : {}) };
}

/** The managed-task scenarios run only when the configuration sets the bridge up. */
const MANAGED_SCENARIOS: readonly ScenarioName[] = ["managed-tasks", "managed-gated"];

/**
 * Scenarios that take longest start first (after the probes): managed-tasks waits on the
 * CLI's own polls and timeouts for several seconds in one session, so started last it would
 * add that to the run; started first, the others fit beside it.
 */
const LONGEST_FIRST: readonly ScenarioName[] = ["managed-tasks"];

/** A stalled response outlives the kit's wait for it by this much, so only the CLI can end the stall first. */
export const STALL_LIMIT_MARGIN_MS = 30_000;

/** The options' bounds with the defaults filled in. */
export function boundsFrom(options: Pick<AgentCliSuiteOptions, "turnTimeoutMs" | "stallTimeoutMs" | "quietWindowMs" | "shutdownTimeoutMs" | "orderSkewMs">): KitBounds {
  return {
    turnTimeoutMs: options.turnTimeoutMs ?? DEFAULT_BOUNDS.turnTimeoutMs,
    stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_BOUNDS.stallTimeoutMs,
    quietWindowMs: options.quietWindowMs ?? DEFAULT_BOUNDS.quietWindowMs,
    shutdownTimeoutMs: options.shutdownTimeoutMs ?? DEFAULT_BOUNDS.shutdownTimeoutMs,
    orderSkewMs: options.orderSkewMs ?? DEFAULT_BOUNDS.orderSkewMs,
  };
}

/** How long the fixture keeps a stalled response open: past every wait of the kit for it. */
export function stallLimitFor(bounds: KitBounds): number {
  return bounds.stallTimeoutMs + bounds.turnTimeoutMs + STALL_LIMIT_MARGIN_MS;
}

async function runScenario(name: ScenarioName, options: AgentCliSuiteOptions, keys: RunKeys, bridge: BridgeSetup | undefined, bounds: KitBounds, control: RunControl, budget: OutputBudget): Promise<{ transcript: Transcript; stop?: ScenarioStop }> {
  const root = mkdtempSync(join(tmpdir(), `awp-agent-${name}-`));
  const cwd = join(root, "work");
  const home = options.home ?? join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const fixtures = await startScenarioFixtures(options.config, keys, stallLimitFor(bounds));
  const ctx = new ScenarioContext({
    name,
    mode: options.config.mode,
    config: options.config,
    fixture: fixtures.fixture,
    ...(fixtures.controlPlane !== undefined ? { controlPlane: fixtures.controlPlane } : {}),
    ...(bridge !== undefined ? { bridge } : {}),
    placeholders: fixtures.placeholders,
    turnTimeoutMs: bounds.turnTimeoutMs,
    bounds,
    cwd,
    home,
    launcherEnv: options.launcherEnv ?? process.env,
    onUnanswered: () => control.unanswered(),
    outputBudget: budget,
  });
  control.enter(ctx);
  try {
    await SCENARIO_RUNNERS[name](ctx);
  } catch (error) {
    if (!(error instanceof ScenarioStopped)) throw error;
  } finally {
    // finish() closes the scenario's fixtures too, before it stops recording them.
    await ctx.finish();
    control.leave(ctx);
    rmSync(root, { recursive: true, force: true });
  }
  const stop = ctx.stop;
  return { transcript: { scenario: name, mode: options.config.mode, events: ctx.events }, ...(stop !== undefined ? { stop } : {}) };
}

/**
 * Drives the scenarios against a live candidate; every process and fixture is gone when it
 * resolves. The failure probes start first and run beside the others, outside the --jobs
 * limit: they mostly wait for the CLI to give up, so a slow one costs max(its wait, the rest).
 * A scenario stops at its first unanswered turn; the run stops every scenario at
 * --run-timeout, or once the CLI has shown it answers nothing (run-control.ts).
 */
export async function recordAgentCliRun(options: AgentCliSuiteOptions): Promise<AgentRun & { bounds: KitBounds }> {
  const bounds = boundsFrom(options);
  const keys = newRunKeys(options.config);
  const bridge = bridgeSetup(options.config, options.managedOptIn);
  // Without the bridge the managed-task clauses are not applicable: their scenarios would judge nothing.
  const names = (options.scenarios ?? SCENARIO_NAMES).filter((name) => bridge !== undefined || !MANAGED_SCENARIOS.includes(name));
  const transcripts = new Map<ScenarioName, Transcript>();
  const stops: ScenarioStop[] = [];
  const jobs = Math.max(1, options.jobs ?? 4);
  const runTimeoutMs = options.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const control = new RunControl(runTimeoutMs);
  const budget = new OutputBudget(budgetLimits(options.outputBudgetMib ?? DEFAULT_OUTPUT_BUDGET_MIB));
  const run = async (name: ScenarioName): Promise<void> => {
    const cause = control.stopped;
    if (cause !== undefined) {
      const stop: ScenarioStop = { scenario: name, cause, started: false };
      stops.push(stop);
      options.onScenario?.(name, undefined, { ms: 0, turns: 0, answered: 0, stop });
      return;
    }
    const started = performance.now();
    const { transcript, stop } = await runScenario(name, options, keys, bridge, bounds, control, budget);
    transcripts.set(name, transcript);
    if (stop !== undefined) stops.push(stop);
    options.onScenario?.(name, transcript, outcomeOf(transcript, performance.now() - started, stop));
  };
  const probes = names.filter((name) => FAILURE_PROBES.includes(name)).map(run);
  const queue = names.filter((name) => !FAILURE_PROBES.includes(name)).sort((a, b) => Number(LONGEST_FIRST.includes(b)) - Number(LONGEST_FIRST.includes(a)));
  const worker = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) await run(name);
  };
  try {
    await Promise.all([...probes, ...Array.from({ length: Math.min(jobs, queue.length) }, worker)]);
  } finally {
    await control.close();
  }
  return {
    mode: options.config.mode,
    transcripts: names.flatMap((name) => transcripts.get(name) ?? []),
    stops: names.flatMap((name) => stops.filter((s) => s.scenario === name)),
    runTimeoutMs,
    launch: options.facts,
    ...(keys.token !== undefined ? { token: keys.token } : {}),
    managed: {
      ...(bridge !== undefined ? { setup: bridge } : {}),
      ...(keys.controlPlaneToken !== undefined ? { token: keys.controlPlaneToken } : {}),
      outputLimit: options.taskOutputLimit ?? DEFAULT_TASK_OUTPUT_LIMIT,
      waitSlackMs: options.taskWaitSlackMs ?? DEFAULT_TASK_WAIT_SLACK_MS,
    },
    turnTimeoutMs: bounds.turnTimeoutMs,
    bounds,
    offline: false,
  };
}

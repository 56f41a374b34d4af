import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentRun } from "../../core/agent-cli/checks/helpers.js";
import type { LaunchConfig, LaunchFacts } from "../../core/agent-cli/launch.js";
import { SCENARIO_NAMES, type ScenarioName } from "../../core/agent-cli/scenarios.js";
import type { Transcript } from "../../core/agent-cli/types.js";
import { newFixtureToken, startModelFixture } from "../../fixtures/index.js";
import { ScenarioContext } from "./context.js";
import { SCENARIO_RUNNERS } from "./scenarios/index.js";

export interface AgentCliSuiteOptions {
  config: LaunchConfig;
  facts: LaunchFacts;
  scenarios?: readonly ScenarioName[];
  /** Bound of every wait for a turn's terminal event (default 30 s). */
  turnTimeoutMs?: number;
  /** HOME for the candidate (default: a fresh folder per scenario). */
  home?: string;
  /** Scenarios run at once, each with its own processes and model fixture (default 4). */
  jobs?: number;
  /** Environment of the launcher (default process.env). */
  launcherEnv?: Record<string, string | undefined>;
  onScenario?: (name: ScenarioName, transcript: Transcript) => void;
}

/** True when the configuration hands the candidate the fixture's API key. */
export function usesToken(config: LaunchConfig): boolean {
  return [...config.prefixArgs, ...Object.values(config.env)].some((v) => v.includes("{{fixture.token}}"));
}

async function runScenario(name: ScenarioName, options: AgentCliSuiteOptions, token: string | undefined, turnTimeoutMs: number): Promise<Transcript> {
  const root = mkdtempSync(join(tmpdir(), `awp-agent-${name}-`));
  const cwd = join(root, "work");
  const home = options.home ?? join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const fixture = await startModelFixture(token !== undefined ? { token } : {});
  const ctx = new ScenarioContext({
    name,
    mode: options.config.mode,
    config: options.config,
    fixture,
    placeholders: { "fixture.openai": fixture.openaiBase, "fixture.anthropic": fixture.anthropicBase, ...(token !== undefined ? { "fixture.token": token } : {}) },
    turnTimeoutMs,
    cwd,
    home,
    launcherEnv: options.launcherEnv ?? process.env,
  });
  try {
    await SCENARIO_RUNNERS[name](ctx);
  } finally {
    await ctx.finish();
    await fixture.close();
    rmSync(root, { recursive: true, force: true });
  }
  return { scenario: name, mode: options.config.mode, events: ctx.events };
}

/** Drives the scenarios against a live candidate; every process and fixture is gone when it resolves. */
export async function recordAgentCliRun(options: AgentCliSuiteOptions): Promise<AgentRun> {
  const turnTimeoutMs = options.turnTimeoutMs ?? 30_000;
  const token = usesToken(options.config) ? newFixtureToken() : undefined;
  const names = [...(options.scenarios ?? SCENARIO_NAMES)];
  const transcripts = new Map<ScenarioName, Transcript>();
  const jobs = Math.max(1, options.jobs ?? 4);
  const queue = [...names];
  const worker = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const transcript = await runScenario(name, options, token, turnTimeoutMs);
      transcripts.set(name, transcript);
      options.onScenario?.(name, transcript);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, names.length) }, worker));
  return {
    mode: options.config.mode,
    transcripts: names.map((name) => transcripts.get(name) as Transcript),
    launch: options.facts,
    ...(token !== undefined ? { token } : {}),
    turnTimeoutMs,
    offline: false,
  };
}

/**
 * What a scenario is given (ScenarioSetup), and how it stops (ScenarioStopped): the driver's
 * side of ScenarioContext (context.ts).
 */
import type { LaunchConfig } from "../../core/agent-cli/launch.js";
import type { AgentMode } from "../../core/agent-cli/types.js";
import type { KitBounds, ScenarioName, ScenarioStop } from "../../core/agent-cli/scenarios.js";
import type { ControlPlaneFixture, ModelFixture } from "../../servers/index.js";
import type { BridgeSetup } from "../../core/agent-cli/managed-tasks.js";
import type { OutputBudget } from "./output-budget.js";
import type { ScenarioContext } from "./context.js";

export type Block = Record<string, unknown>;

export interface ScenarioSetup {
  /** A fixed scenario, or "fuzz" for a fuzzed session. */
  name: ScenarioName | "fuzz";
  mode: AgentMode;
  config: LaunchConfig;
  fixture: ModelFixture;
  /** The control-plane fixture, when the configuration uses its placeholders. */
  controlPlane?: ControlPlaneFixture;
  /** How the configuration sets the managed-task bridge (absent: it does not). */
  bridge?: BridgeSetup;
  /** {{fixture.*}} values for this scenario's fixture. */
  placeholders: Record<string, string>;
  turnTimeoutMs: number;
  /** The other kit bounds (default DEFAULT_BOUNDS; turnTimeoutMs above wins). */
  bounds?: Partial<KitBounds>;
  cwd: string;
  home: string;
  /** Environment of the kit process (the launcher). */
  launcherEnv: Record<string, string | undefined>;
  /** Told when a turn bounded by --turn-timeout went unanswered (the run may then stop every scenario). */
  onUnanswered?: (ctx: ScenarioContext) => void;
  /** The run's stdout budget, shared by every process of every scenario (default: each process's own caps only). */
  outputBudget?: OutputBudget;
}

/**
 * Thrown by a scenario step once the scenario is stopped (a turn went unanswered, or the run
 * stopped it): the scenario runs none of its later steps. The driver catches it.
 */
export class ScenarioStopped extends Error {
  constructor(readonly stop: ScenarioStop) {
    super(`scenario ${stop.scenario} stopped (${stop.cause})`);
  }
}

import type { ScenarioName } from "../../../core/agent-cli/scenarios.js";
import type { ScenarioContext } from "../context.js";
import { failuresError, failuresStall, resume, shutdown, sigtermIdle, sigtermMidTurn } from "./lifecycle.js";
import { basic, content, malformed, mcp, queued, tools } from "./turns.js";
import { managedGated, managedTasks } from "./managed.js";

/** How each scenario drives the candidate (what it judges is in core/agent-cli/scenarios.ts). */
export const SCENARIO_RUNNERS: Record<ScenarioName, (ctx: ScenarioContext) => Promise<void>> = {
  basic,
  queued,
  content,
  malformed,
  tools,
  mcp,
  resume,
  "failures-error": failuresError,
  "failures-stall": failuresStall,
  shutdown,
  "sigterm-idle": sigtermIdle,
  "sigterm-mid-turn": sigtermMidTurn,
  "managed-tasks": managedTasks,
  "managed-gated": managedGated,
};

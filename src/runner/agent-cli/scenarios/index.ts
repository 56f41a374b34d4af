import type { ScenarioName } from "../../../core/agent-cli/scenarios.js";
import type { ScenarioContext } from "../context.js";
import { failuresError, failuresStall, resume, shutdown, sigtermIdle, sigtermMidTurn } from "./lifecycle.js";
import { basic, content, malformed, mcp, queued, tools } from "./turns.js";

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
  // TEMPORARY, branch i10-checks only: the managed-task scenarios are driven by the
  // integrator's runner (src/runner/**), which replaces these two entries at merge. Until
  // then they record an empty transcript, and every managed-tasks clause is not applicable.
  "managed-tasks": () => Promise.resolve(),
  "managed-gated": () => Promise.resolve(),
};

/**
 * The managed-task scenarios. They run only when the launch configuration sets the bridge up
 * ({{fixture.controlplane}}); the control-plane fixture answers every task as its argv plans it
 * and never runs anything, and the model asks for the tool only when the CLI offered it.
 */
import { AFTER_TAG, describePlace, GATED_PARTS, MANAGED_TURNS, partPlace, taskArgv, withoutSetting } from "../../../core/agent-cli/managed-tasks.js";
import type { ScenarioContext } from "../context.js";

/** How long a gated launch that answered with an error result may take to exit on its own (a refusal to start). */
const REFUSAL_EXIT_MS = 2_000;

/** Every managed turn in order, then a plain one: a failing control plane must not stop the CLI serving turns. */
export async function managedTasks(ctx: ScenarioContext): Promise<void> {
  const s = await ctx.start();
  for (const turn of MANAGED_TURNS) {
    await ctx.turn(s, turn.prompt, { turn: turn.tag, task: turn.task, ...(turn.rounds !== undefined ? { taskRounds: turn.rounds } : {}) });
  }
  await ctx.turn(s, "A plain question after the tasks.", { turn: AFTER_TAG });
}

/**
 * One launch per bridge setting, each without that setting: the CLI must not offer the tool
 * or reach the control plane (refusing to start is fine). A setting the configuration does
 * not name (an opt-in variable the kit could not find) is noted, not launched.
 */
export async function managedGated(ctx: ScenarioContext): Promise<void> {
  const bridge = ctx.setup.bridge;
  if (bridge === undefined) return;
  for (const part of GATED_PARTS) {
    const place = partPlace(bridge, part);
    if (place === undefined) {
      ctx.note(`managed-gated: not launched without ${part}: the launch configuration names no ${part === "opt-in" ? "opt-in variable (give it with --env NAME=1 and, unless it ends in MANAGED_TASKS_OPT_IN, --managed-tasks-opt-in NAME)" : `${part} ({{fixture.controlplane${part === "key" ? "_token" : ""}}})`}`);
      continue;
    }
    ctx.note(`managed-gated: launch without ${part} (${describePlace(place)})`);
    const s = await ctx.start({}, undefined, withoutSetting(ctx.setup.config, place));
    const terminal = await ctx.turn(s, "Run the task if you can.", { turn: `mt-gated-${part}`, task: { argv: taskArgv({ kind: "succeed", stdout: "gated" }), timeout_seconds: 10 } });
    // A CLI refusing to start may print its error result before it exits: give it the time to exit on its own.
    const answer = terminal?.json as { is_error?: unknown } | null | undefined;
    if (answer?.is_error === true) await s.waitQuiet(REFUSAL_EXIT_MS);
    await s.stop();
  }
}

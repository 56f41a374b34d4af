/** The managed-task bridge options of `run --protocol agent-cli`. */
import type { Argv } from "yargs";
import { DEFAULT_TASK_OUTPUT_LIMIT, DEFAULT_TASK_WAIT_SLACK_MS } from "../core/agent-cli/managed-tasks.js";
import { KitError } from "../core/errors.js";

export interface ManagedArgs {
  managedTasksOptIn?: string;
  taskOutputLimit?: number;
  taskWaitSlack?: number;
}

export function withManagedOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option("managed-tasks-opt-in", { type: "string", describe: "agent-cli: the --env variable that opts the CLI into the managed-task bridge (default AWP_AGENT_MANAGED_TASKS_OPT_IN, or one ending in MANAGED_TASKS_OPT_IN); the bridge is on when the launch uses {{fixture.controlplane}} and {{fixture.controlplane_token}}" })
    .option("task-output-limit", { type: "number", describe: `agent-cli: the largest tool result, in bytes, a 1 MiB managed-task stdout may reach the model as (default ${DEFAULT_TASK_OUTPUT_LIMIT}; the kit's choice)` })
    .option("task-wait-slack", { type: "number", describe: `agent-cli: how long past timeout_seconds, in ms, a CLI may take to stop waiting for a pending managed task (default ${DEFAULT_TASK_WAIT_SLACK_MS}; the kit's choice)` }) as Argv<T>;
}

function positiveInteger(value: number | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647) throw new KitError("usage", `${flag} must be a positive integer`);
  return value;
}

/** The options as the suite takes them; usage error on a bad value. */
export function readManaged(args: ManagedArgs): { managedOptIn?: string; taskOutputLimit?: number; taskWaitSlackMs?: number } {
  const name = args.managedTasksOptIn;
  if (name !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new KitError("usage", "--managed-tasks-opt-in must be an environment variable name");
  const limit = positiveInteger(args.taskOutputLimit, "--task-output-limit");
  const slack = positiveInteger(args.taskWaitSlack, "--task-wait-slack");
  return { ...(name !== undefined ? { managedOptIn: name } : {}), ...(limit !== undefined ? { taskOutputLimit: limit } : {}), ...(slack !== undefined ? { taskWaitSlackMs: slack } : {}) };
}

/** The command-line form of the options given, for reproduce lines. */
export function managedFlags(args: ManagedArgs): string[] {
  return [
    ...(args.managedTasksOptIn !== undefined ? ["--managed-tasks-opt-in", args.managedTasksOptIn] : []),
    ...(args.taskOutputLimit !== undefined ? ["--task-output-limit", String(args.taskOutputLimit)] : []),
    ...(args.taskWaitSlack !== undefined ? ["--task-wait-slack", String(args.taskWaitSlack)] : []),
  ];
}

/**
 * The managed-task bridge as the kit drives it: the tool's name, the task plans the kit's
 * control-plane fixture reads from a task's argv, the turns of the managed-tasks scenario and
 * the launches of the managed-gated one, and the kit's own bounds. Pure data and functions:
 * the runner, the fixtures and the checks all read them from here.
 */
import { isRecord } from "./analysis.js";
import type { TaskCallArgs, TaskPlan, TaskPlanKind } from "./types.js";

/** The one tool the bridge offers the model. */
export const MANAGED_TOOL = "awp_run_managed_task";

/** argv[0] of every task the kit's model asks for: the control plane reads the plan from the rest. */
export const TASK_PROGRAM = "awp-conformance-task";

export const TASK_PLAN_KINDS: readonly TaskPlanKind[] = ["succeed", "fail", "pending", "http-500", "not-json", "redirect", "slow", "huge-stdout", "bad-id", "bad-status"];

/** Bounds of the numbers a plan may carry (bigger values are ignored when read). */
export const PLAN_LIMITS = { polls: 20, delayMs: 60_000, bytes: 8 * 1024 * 1024, exitCode: 255 } as const;
export const HUGE_STDOUT_BYTES = 1024 * 1024;

/** --task-output-limit: the largest tool result (bytes) a 1 MiB task stdout may reach the model as. */
export const DEFAULT_TASK_OUTPUT_LIMIT = 256 * 1024;
/** --task-wait-slack: how long past timeout_seconds a CLI may take to stop waiting for a pending task. */
export const DEFAULT_TASK_WAIT_SLACK_MS = 10_000;

/**
 * The managed-task call's arguments when `value` is {argv: string[], timeout_seconds?: finite
 * number} (other properties are dropped), else undefined.
 */
export function taskCallArgs(value: unknown): TaskCallArgs | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { argv, timeout_seconds: timeout } = value as Record<string, unknown>;
  if (!Array.isArray(argv) || !argv.every((a): a is string => typeof a === "string")) return undefined;
  if (timeout !== undefined && (typeof timeout !== "number" || !Number.isFinite(timeout))) return undefined;
  // -0 reads back as 0 from JSON: normalized so a task renders and parses to the same value.
  return { argv: [...argv], ...(timeout !== undefined ? { timeout_seconds: timeout === 0 ? 0 : timeout } : {}) };
}

/** The path of task submissions; a task is polled at TASKS_PATH/<id>. */
export const TASKS_PATH = "/v1/tasks";

/** The task API of the kit's control plane (the upstream reference CLI's), as findings and reasons name it. */
export const TASK_API = `POST ${TASKS_PATH} with a JSON body {"task_type": "command", "payload": {"argv": [...]}, "idempotency_key": "..."}, then GET ${TASKS_PATH}/<id> with the id it answered, each with Authorization: Bearer <key> (docs/control-plane.md)`;

/**
 * Why a submission's JSON body is not a task the control plane can serve, or undefined when
 * it is: an object whose payload.argv is a non-empty array of strings (the plan is read from
 * it). task_type and idempotency_key are not part of this rule: their own clauses judge them.
 */
export function taskBodyProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return "the request body must be a JSON object";
  const payload = body["payload"];
  if (!isRecord(payload)) return "payload must be an object";
  const argv = payload["argv"];
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string")) return "payload.argv must be a non-empty array of strings";
  return undefined;
}

/** The argv of a task with this plan, then `extra` elements (ignored by the control plane). */
export function taskArgv(plan: TaskPlan, extra: readonly string[] = []): string[] {
  const argv = [TASK_PROGRAM, `plan=${plan.kind}`];
  if (plan.exitCode !== undefined) argv.push(`exit=${plan.exitCode}`);
  if (plan.stdout !== undefined) argv.push(`stdout=${plan.stdout}`);
  if (plan.stderr !== undefined) argv.push(`stderr=${plan.stderr}`);
  if (plan.polls !== undefined) argv.push(`polls=${plan.polls}`);
  if (plan.delayMs !== undefined) argv.push(`delay=${plan.delayMs}`);
  if (plan.bytes !== undefined) argv.push(`bytes=${plan.bytes}`);
  return [...argv, ...extra];
}

function integerUpTo(raw: string, max: number): number | undefined {
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value <= max ? value : undefined;
}

/**
 * The plan a submitted argv asks for: "succeed" with exit code 0 and no output unless argv[0]
 * is TASK_PROGRAM and its key=value elements say otherwise. Never throws on any input.
 */
export function parseTaskPlan(argv: unknown): TaskPlan {
  const plan: TaskPlan = { kind: "succeed" };
  if (!Array.isArray(argv) || argv[0] !== TASK_PROGRAM) return plan;
  for (const element of argv.slice(1)) {
    if (typeof element !== "string") continue;
    const eq = element.indexOf("=");
    if (eq <= 0) continue;
    const key = element.slice(0, eq);
    const raw = element.slice(eq + 1);
    if (key === "plan" && (TASK_PLAN_KINDS as readonly string[]).includes(raw)) plan.kind = raw as TaskPlanKind;
    else if (key === "stdout") plan.stdout = raw;
    else if (key === "stderr") plan.stderr = raw;
    else {
      const limit = key === "exit" ? PLAN_LIMITS.exitCode : key === "polls" ? PLAN_LIMITS.polls : key === "delay" ? PLAN_LIMITS.delayMs : key === "bytes" ? PLAN_LIMITS.bytes : undefined;
      const value = limit === undefined ? undefined : integerUpTo(raw, limit);
      if (value === undefined) continue;
      if (key === "exit") plan.exitCode = value;
      else if (key === "polls") plan.polls = value;
      else if (key === "delay") plan.delayMs = value;
      else plan.bytes = value;
    }
  }
  return plan;
}

/** One turn of the managed-tasks scenario. */
export interface ManagedTurn {
  /** The turn tag (directive `turn=`). */
  tag: string;
  prompt: string;
  task: TaskCallArgs;
  /** Directive `rounds=` (default "A"). */
  rounds?: string;
}

/** Elements a shell would split or expand: a CLI that joins argv into a command string changes them. */
export const SHELL_LOOKING = ["two words; echo $HOME", "'quoted' \"twice\" `tick` | cat > out.txt"];
export const TASK_STDOUT = "awp-task-stdout-5e1b";
export const TASK_STDERR = "awp-task-stderr-8c27";
export const TASK_EXIT_CODE = 3;

/** The control-plane failures, one turn each, in order. */
export const FAILURE_PLANS: readonly TaskPlanKind[] = ["http-500", "not-json", "redirect", "bad-id", "bad-status", "slow"];
/** How long the "slow" plan holds the answer to the submission: past a sane per-request timeout. */
export const SLOW_PLAN_MS = 8_000;
/** timeout_seconds of the pending task. */
export const PENDING_TIMEOUT_S = 2;

const failureTurn = (kind: TaskPlanKind): ManagedTurn => ({
  tag: `mt-fail-${kind}`,
  prompt: `Run the task (${kind.replace(/-/g, " ")} case).`,
  task: { argv: taskArgv({ kind, polls: 0, ...(kind === "slow" ? { delayMs: SLOW_PLAN_MS } : {}) }), timeout_seconds: 20 },
});

/** The turns of the managed-tasks scenario, in the order they are sent; a plain turn follows them. */
export const MANAGED_TURNS: readonly ManagedTurn[] = [
  {
    tag: "mt-succeed",
    prompt: "Run the task twice as asked.",
    task: { argv: taskArgv({ kind: "succeed", exitCode: TASK_EXIT_CODE, stdout: TASK_STDOUT, stderr: TASK_STDERR, polls: 1 }, SHELL_LOOKING), timeout_seconds: 30 },
    rounds: "AAB",
  },
  { tag: "mt-pending", prompt: "Run the task that never finishes.", task: { argv: taskArgv({ kind: "pending" }), timeout_seconds: PENDING_TIMEOUT_S } },
  ...FAILURE_PLANS.map(failureTurn),
  { tag: "mt-every", prompt: "Keep running tasks.", task: { argv: taskArgv({ kind: "succeed", stdout: "again", polls: 0 }), timeout_seconds: 10 }, rounds: "*" },
  // Late: every later model request carries this turn's (cut) output again in its history.
  { tag: "mt-huge", prompt: "Run the task with the long output.", task: { argv: taskArgv({ kind: "huge-stdout", bytes: HUGE_STDOUT_BYTES, polls: 0 }), timeout_seconds: 30 } },
];

/** The plain turn after the managed ones: the CLI still serves turns. */
export const AFTER_TAG = "mt-after";

/** The bridge settings the managed-gated scenario leaves out, one per launch, in order. */
export const GATED_PARTS = ["opt-in", "url", "key"] as const;
export type GatedPart = (typeof GATED_PARTS)[number];

/** Placeholders of the control-plane fixture. */
export const CONTROL_PLANE_PLACEHOLDER = "{{fixture.controlplane}}";
export const CONTROL_PLANE_TOKEN_PLACEHOLDER = "{{fixture.controlplane_token}}";
/** The contract's opt-in variable; --managed-tasks-opt-in names another. */
export const DEFAULT_OPT_IN_NAME = "AWP_AGENT_MANAGED_TASKS_OPT_IN";

/** Where a bridge setting is given: an env entry by name, or prefix arguments by index (a flag and its value, or one element). */
export type SettingPlace = { where: "env"; name: string } | { where: "args"; indexes: number[] };

/** How the launch configuration turns the bridge on; undefined when it does not use {{fixture.controlplane}}. */
export interface BridgeSetup {
  url: SettingPlace;
  key?: SettingPlace;
  optIn?: SettingPlace;
}

interface ConfigLike {
  prefixArgs: readonly string[];
  env: Readonly<Record<string, string>>;
}

function placeOf(config: ConfigLike, test: (value: string) => boolean): SettingPlace | undefined {
  const name = Object.keys(config.env).find((n) => test(config.env[n] as string));
  if (name !== undefined) return { where: "env", name };
  const at = config.prefixArgs.findIndex(test);
  if (at === -1) return undefined;
  const before = config.prefixArgs[at - 1];
  const alone = config.prefixArgs[at] as string;
  // "--flag VALUE": both go; "--flag=VALUE" or a bare value: the one element.
  return { where: "args", indexes: before !== undefined && before.startsWith("-") && !alone.startsWith("-") && !before.includes("=") ? [at - 1, at] : [at] };
}

/**
 * The bridge settings of a launch configuration. The URL and key are found by their
 * placeholders; the opt-in is the env entry named `optInName`, else the one whose name ends
 * in MANAGED_TASKS_OPT_IN.
 */
export function bridgeSetup(config: ConfigLike, optInName?: string): BridgeSetup | undefined {
  const url = placeOf(config, (v) => v.includes(CONTROL_PLANE_PLACEHOLDER));
  if (url === undefined) return undefined;
  const key = placeOf(config, (v) => v.includes(CONTROL_PLANE_TOKEN_PLACEHOLDER));
  const names = Object.keys(config.env);
  const optIn = optInName !== undefined ? names.find((n) => n === optInName) : (names.find((n) => n === DEFAULT_OPT_IN_NAME) ?? names.find((n) => /MANAGED_TASKS?_OPT_IN$/.test(n)));
  return { url, ...(key !== undefined ? { key } : {}), ...(optIn !== undefined ? { optIn: { where: "env", name: optIn } } : {}) };
}

/** The place of one part of the bridge setup (undefined: the configuration does not name it). */
export function partPlace(setup: BridgeSetup, part: GatedPart): SettingPlace | undefined {
  return part === "url" ? setup.url : part === "key" ? setup.key : setup.optIn;
}

/** The configuration without one bridge setting. */
export function withoutSetting<T extends ConfigLike>(config: T, place: SettingPlace): T {
  if (place.where === "env") {
    const env = { ...config.env };
    delete env[place.name];
    return { ...config, env };
  }
  return { ...config, prefixArgs: config.prefixArgs.filter((_, i) => !place.indexes.includes(i)) };
}

/** How a setting place reads in a message: "AWP_CONTROL_PLANE_URL" or "prefix arguments 3-4". */
export function describePlace(place: SettingPlace): string {
  return place.where === "env" ? place.name : `prefix argument${place.indexes.length > 1 ? "s" : ""} ${place.indexes.map((i) => i + 1).join("-")}`;
}

import { accessSync, constants, lstatSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Argv } from "yargs";
import type { LaunchConfig, LaunchFacts } from "../core/agent-cli/launch.js";
import { DEFAULT_BOUNDS, SCENARIO_ALIASES, SCENARIO_NAMES, expandScenario, type KitBounds, type ScenarioName } from "../core/agent-cli/scenarios.js";
import { DEFAULT_OUTPUT_BUDGET_MIB, type AgentMode } from "../core/agent-cli/types.js";
import { KitError } from "../core/errors.js";
import { withManagedOptions } from "./managed-options.js";
import { SPAWNER_DESCRIBE, SPAWNER_MODES } from "../runner/native/modes.js";

export const DEFAULT_MODEL = "awp-conformance-model";

/** The launch options shared by `run --protocol agent-cli` and `record`. */
export function withLaunchOptions<T>(y: Argv<T>): Argv<T> {
  return withManagedOptions(y)
    .option("mode", { type: "string", choices: ["awp-jsonl", "stream-json"], describe: "agent-cli: awp-jsonl (default) or stream-json (adds the compatibility flags)" })
    .option("model", { type: "string", describe: `agent-cli: model id passed with --model (default ${DEFAULT_MODEL})` })
    .option("env", { type: "string", array: true, describe: "agent-cli: NAME=VALUE for the child (repeatable); {{fixture.openai}}, {{fixture.anthropic}}, {{fixture.token}}, {{fixture.controlplane}} and {{fixture.controlplane_token}} expand" })
    .option("env-json", { type: "string", describe: "agent-cli: child env entries as a JSON object (AWP_AGENT_CLI_ENV_JSON rules)" })
    .option("args-json", { type: "string", describe: "agent-cli: prefix arguments as a JSON array (AWP_AGENT_CLI_ARGS_JSON)" })
    .option("from-env", { type: "boolean", describe: "agent-cli: take the launch configuration from the AWP_AGENT_CLI_* variables" })
    .option("home", { type: "string", describe: "agent-cli: HOME for the candidate (default: a fresh folder per scenario)" })
    .option("turn-timeout", { type: "number", describe: `agent-cli: bound of every wait for a turn's terminal event in ms (default ${DEFAULT_BOUNDS.turnTimeoutMs})` })
    .option("stall-timeout", { type: "number", describe: `agent-cli: how long the failure probes wait for the CLI to end a failing (HTTP 500, stalled) turn, in ms (default ${DEFAULT_BOUNDS.stallTimeoutMs})` })
    .option("quiet-window", { type: "number", describe: `agent-cli: how long stdout is watched after the basic scenario's launch before the first line, in ms (default ${DEFAULT_BOUNDS.quietWindowMs})` })
    .option("shutdown-timeout", { type: "number", describe: `agent-cli: how long after {"type":"shutdown"} the process may take to exit, in ms (default ${DEFAULT_BOUNDS.shutdownTimeoutMs})` })
    .option("order-skew", { type: "number", describe: `agent-cli: how early the next turn's model request may be seen before a turn's terminal line and still count as in order, in ms (default ${DEFAULT_BOUNDS.orderSkewMs}; the kit's allowance for its own observation skew under load, 0 for none)` })
    .option("scenario", { type: "string", array: true, describe: `agent-cli: only these scenarios (${[...SCENARIO_NAMES, ...Object.keys(SCENARIO_ALIASES)].join(", ")})` })
    .option("spawner", { type: "string", choices: [...SPAWNER_MODES], describe: SPAWNER_DESCRIBE })
    .option("jobs", { type: "number", describe: "agent-cli: scenarios run at once (default 4); provider: calls in flight at once where none depends on another's answer (default 2)" })
    .option("output-budget", { type: "number", describe: `agent-cli: MiB of stdout the kit records from all processes of a run, or of one fuzzed session (default ${DEFAULT_OUTPUT_BUDGET_MIB}; the kit's choice, to bound its memory: a CLI that prints more leaves the run incomplete, not failed)` }) as Argv<T>;
}

/** The kit's time-bound options of an agent-cli run, as parsed. */
export interface BoundArgs {
  turnTimeout?: number;
  stallTimeout?: number;
  quietWindow?: number;
  shutdownTimeout?: number;
  orderSkew?: number;
  outputBudget?: number;
}

/** Each bound's argument, key, flag and least value (an allowance may be 0: none). */
const BOUND_FLAGS: readonly [keyof BoundArgs, keyof KitBounds, string, number][] = [
  ["turnTimeout", "turnTimeoutMs", "--turn-timeout", 1],
  ["stallTimeout", "stallTimeoutMs", "--stall-timeout", 1],
  ["quietWindow", "quietWindowMs", "--quiet-window", 1],
  ["shutdownTimeout", "shutdownTimeoutMs", "--shutdown-timeout", 1],
  ["orderSkew", "orderSkewMs", "--order-skew", 0],
];

/** The bounds given on the command line (integers of ms, at least the bound's least value, at most 2^31 - 1); usage error otherwise. */
export function readBounds(args: BoundArgs): Partial<KitBounds> {
  const bounds: Partial<KitBounds> = {};
  for (const [arg, key, flag, least] of BOUND_FLAGS) {
    const value = args[arg];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < least || value > 2_147_483_647) throw new KitError("usage", `${flag} must be ${least === 0 ? "a whole number of milliseconds, 0 or more" : "a positive integer (milliseconds)"}`);
    bounds[key] = value;
  }
  return bounds;
}

/** --output-budget as given (whole MiB, 1 to 1024), or undefined for the default; usage error otherwise. */
export function readOutputBudget(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > 1024) throw new KitError("usage", "--output-budget must be a whole number of MiB from 1 to 1024");
  return value;
}

/** --run-timeout as given (a positive integer of ms, at most 2^31 - 1), or undefined for the default; usage error otherwise. */
export function readRunTimeout(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647) throw new KitError("usage", "--run-timeout must be a positive integer (milliseconds)");
  return value;
}

/** The command-line form of the bounds given, for reproduce lines. */
export function boundFlags(args: BoundArgs): string[] {
  return BOUND_FLAGS.flatMap(([arg, , flag]) => (args[arg] !== undefined ? [flag, String(args[arg])] : []));
}

/** The scenarios `--scenario` names (aliases such as "failures" expand), in the kit's order; undefined for none. */
export function scenarioNames(names: readonly string[]): ScenarioName[] | undefined {
  if (names.length === 0) return undefined;
  const wanted = new Set<ScenarioName>();
  for (const name of names) {
    const expanded = expandScenario(name);
    if (expanded === undefined) throw new KitError("usage", `unknown scenario "${name}" (known: ${[...SCENARIO_NAMES, ...Object.keys(SCENARIO_ALIASES)].join(", ")})`);
    for (const one of expanded) wanted.add(one);
  }
  return SCENARIO_NAMES.filter((name) => wanted.has(name));
}

export interface LaunchArgs {
  candidate?: string;
  rest: string[];
  mode?: string;
  model?: string;
  env?: unknown;
  envJson?: string;
  argsJson?: string;
  fromEnv?: boolean;
}

/** A JSON option's value, or a configuration error naming it. */
export function parseJsonOption(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new KitError("config_invalid", `${what} is not valid JSON: ${(error as Error).message}`);
  }
}

export function stringArray(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw new KitError("config_invalid", `${what} must be a JSON array of strings (invalid_cli_args_json)`);
  return value;
}

export function stringRecord(value: unknown, what: string): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.values(value).every((v) => typeof v === "string")) {
    throw new KitError("config_invalid", `${what} must be a JSON object of string values (invalid_cli_env_entry)`);
  }
  return { ...(value as Record<string, string>) };
}

function fileFacts(path: string): LaunchFacts["file"] {
  let isSymlink = false;
  try {
    isSymlink = lstatSync(path).isSymbolicLink();
  } catch {
    return { exists: false, isFile: false, isSymlink: false, executable: false };
  }
  let isFile = false;
  let executable = false;
  try {
    isFile = statSync(path).isFile();
    accessSync(path, constants.X_OK);
    executable = true;
  } catch {
    // a dangling link, or a file the user may not execute
  }
  return { exists: true, isFile, isSymlink, executable };
}

/** The launch configuration and the facts the launch clauses judge, from options or AWP_AGENT_CLI_*. */
export function readLaunch(args: LaunchArgs, env: Record<string, string | undefined> = process.env): { config: LaunchConfig; facts: LaunchFacts } {
  const fromEnv = args.fromEnv === true;
  let executable: string;
  let prefixArgs: string[];
  let entries: Record<string, string>;
  let mode: AgentMode;
  let model: string;
  let protocol: string | undefined;
  if (fromEnv) {
    if (args.candidate !== undefined) throw new KitError("usage", "--from-env takes the executable from AWP_AGENT_CLI_EXECUTABLE; do not give one");
    executable = env.AWP_AGENT_CLI_EXECUTABLE ?? "";
    if (executable === "") throw new KitError("usage", "--from-env needs AWP_AGENT_CLI_EXECUTABLE");
    prefixArgs = env.AWP_AGENT_CLI_ARGS_JSON ? stringArray(parseJsonOption(env.AWP_AGENT_CLI_ARGS_JSON, "AWP_AGENT_CLI_ARGS_JSON"), "AWP_AGENT_CLI_ARGS_JSON") : [];
    entries = env.AWP_AGENT_CLI_ENV_JSON ? stringRecord(parseJsonOption(env.AWP_AGENT_CLI_ENV_JSON, "AWP_AGENT_CLI_ENV_JSON"), "AWP_AGENT_CLI_ENV_JSON") : {};
    protocol = env.AWP_AGENT_CLI_PROTOCOL;
    if (protocol === "passthrough") throw new KitError("usage", "AWP_AGENT_CLI_PROTOCOL=passthrough is not the AWP protocol; the kit checks awp-jsonl and stream-json");
    // An invalid name is a launch finding (protocol-name); the Desktop default, stream-json, is tested.
    const name = protocol === "awp-jsonl" ? "awp-jsonl" : "stream-json";
    mode = args.mode === undefined ? name : (args.mode as AgentMode);
    model = args.model ?? env.AWP_AGENT_DEFAULT_MODEL ?? DEFAULT_MODEL;
  } else {
    if (args.candidate === undefined) throw new KitError("usage", "give the candidate executable (or --from-env)");
    executable = isAbsolute(args.candidate) ? args.candidate : resolve(args.candidate);
    prefixArgs = [...(args.argsJson !== undefined ? stringArray(parseJsonOption(args.argsJson, "--args-json"), "--args-json") : []), ...args.rest];
    entries = args.envJson !== undefined ? stringRecord(parseJsonOption(args.envJson, "--env-json"), "--env-json") : {};
    mode = (args.mode as AgentMode | undefined) ?? "awp-jsonl";
    model = args.model ?? DEFAULT_MODEL;
  }
  // Repeated, never comma-split: values may contain commas.
  const pairs = Array.isArray(args.env) ? args.env.map(String) : args.env !== undefined ? [String(args.env)] : [];
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new KitError("usage", `--env ${pair}: expected NAME=VALUE`);
    entries[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const file = fileFacts(isAbsolute(executable) ? executable : resolve(executable));
  if (!file.exists) throw new KitError("candidate_not_found", `candidate ${executable} does not exist`);
  // A file that exists but is no regular executable is a launch finding, judged in the report.
  const config: LaunchConfig = { executable: isAbsolute(executable) ? executable : resolve(executable), prefixArgs, mode, model, env: entries };
  const facts: LaunchFacts = {
    source: fromEnv ? "env" : "cli",
    executable,
    file,
    prefixArgs,
    env: entries,
    model,
    ...(protocol !== undefined ? { protocol } : {}),
    remoteOptIn: env.AWP_AGENT_REMOTE_API_OPT_IN === "1",
  };
  return { config, facts };
}

/**
 * A configuration candidate as the arguments `run` takes (the same RunArgs the flags make), and
 * the flags given on the command line laid over them: a given flag replaces its key, except
 * --env, whose entries add to the candidate's env (or replace one of the same name). One rule,
 * one place: each key is read by the same option readers as its flag, so they cannot differ.
 */
import type { RunArgs } from "../cli/run.js";
import type { ConfigCandidate, KitConfig } from "./types.js";

/** The arguments a candidate of the file stands for (paths already absolute), before the flags. */
export function candidateArgs(candidate: ConfigCandidate, config: KitConfig, out: string): RunArgs {
  const [executable, ...rest] = candidate.command;
  const bounds: Record<string, number | undefined> = { ...candidate.bounds };
  const args: RunArgs & Record<string, unknown> = {
    protocol: candidate.protocol,
    ...(executable !== undefined ? { candidate: executable } : {}),
    rest,
    out,
    clause: candidate.clause ?? [],
    skip: candidate.skip ?? [],
    scenario: candidate.protocol === "agent-cli" ? (candidate.scenario ?? []) : [],
    reporter: config.reporters ?? ["console", "json"],
    color: false,
    ...(config.docsUrl !== undefined ? { docsUrl: config.docsUrl } : {}),
    ...(config.evidence !== undefined ? { evidence: config.evidence } : {}),
    ...(candidate.expectedFailures !== undefined ? { expectedFailures: candidate.expectedFailures } : {}),
    ...(candidate.flaky !== undefined ? { flaky: candidate.flaky } : {}),
    ...(candidate.baseline !== undefined ? { baseline: candidate.baseline } : {}),
    ...(candidate.level !== undefined ? { level: candidate.level } : {}),
    ...(candidate.fuzz?.runs !== undefined ? { fuzzRuns: candidate.fuzz.runs } : {}),
    ...(candidate.fuzz?.time !== undefined ? { fuzzTime: candidate.fuzz.time } : {}),
    ...(candidate.fuzz?.seed !== undefined ? { seed: candidate.fuzz.seed } : {}),
    ...(candidate.fuzz?.corpus !== undefined ? { corpus: candidate.fuzz.corpus } : {}),
  };
  // The bounds keys are the run arguments' own names (timeout, turnTimeout, jobs...).
  for (const [key, value] of Object.entries(bounds)) if (value !== undefined) args[key] = value;
  if (candidate.protocol === "provider") {
    if (candidate.config !== undefined) args.configJson = JSON.stringify(candidate.config);
    if (candidate.configFile !== undefined) args.configFile = candidate.configFile;
    if (candidate.invalidConfigFile !== undefined) args.invalidConfigFile = candidate.invalidConfigFile;
  } else {
    if (candidate.mode !== undefined) args.mode = candidate.mode;
    if (candidate.model !== undefined) args.model = candidate.model;
    if (candidate.env !== undefined) args.env = Object.entries(candidate.env).map(([name, value]) => `${name}=${value}`);
    if (candidate.home !== undefined) args.home = candidate.home;
    if (candidate.managedTasksOptIn !== undefined) args.managedTasksOptIn = candidate.managedTasksOptIn;
  }
  return args;
}

/** Keys one of which, given as a flag, replaces the others of the file (they are one setting). */
const TOGETHER: readonly (readonly (keyof RunArgs)[])[] = [["configJson", "configFile"], ["env", "envJson"]];

/**
 * The flags over the file's arguments: every flag given replaces its key (a list flag is given
 * when it holds a value, --reporter when `reporterGiven`, since yargs fills its default in).
 */
export function overlayFlags(fromFile: RunArgs, flags: RunArgs, reporterGiven: boolean): RunArgs {
  const merged: Record<string, unknown> = { ...fromFile };
  const given = (key: string, value: unknown): boolean => (key === "reporter" ? reporterGiven : Array.isArray(value) ? value.length > 0 : value !== undefined);
  for (const group of TOGETHER) {
    const flag = group.find((key) => given(key, flags[key]));
    // --env adds to the file's env; --env-json (or --config-json over configFile...) replaces the group.
    if (flag !== undefined && flag !== "env") for (const key of group) delete merged[key];
  }
  for (const [key, value] of Object.entries(flags)) {
    if (key === "color") merged.color = value;
    else if (key === "env" && given(key, value)) merged.env = [...(Array.isArray(merged.env) ? merged.env : []), ...(Array.isArray(value) ? value : [value])];
    else if (given(key, value)) merged[key] = value;
  }
  return merged as unknown as RunArgs;
}

/** Whether `--name` (or `--name=...`) is among the kit's own arguments (before `--`). */
export function flagGiven(argv: readonly string[], name: string): boolean {
  const end = argv.indexOf("--");
  return argv.slice(0, end === -1 ? undefined : end).some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
}

import { isAbsolute } from "node:path";
import { ENV_ALLOWLIST, LIMITS, SECRET_ENV_NAME, STREAM_JSON_FLAGS } from "../../agent-cli/launch.js";
import { remote, urlsOf } from "../../agent-cli/checks/launch.js";
import type { Check } from "../../report/judge.js";
import { COMPAT_FLAG_NAMES, endsWithCompatFlags, prefixOf, shownMode, splitLaunchArgs, TAIL_FLAGS, withoutTailPairs, type LaunchArgs } from "../argv.js";
import { hostFinding, noLaunch, notApplicable, perProcess, quote, shown, skip, type Problem, type Unjudged } from "../helpers.js";
import type { HostProcess, LaunchEvent } from "../record.js";
import type { HostRun } from "../types.js";
import { OFF_LINUX, shellParent } from "./shell.js";

const ID = "host/launch";
const RESUME = `${ID}/resume-form`;
/** The redactor's mark for a value it did not record. */
export const REDACTED_VALUE = "[redacted]";
/** The mock's own control variables: a host author configures them to reach the mock. */
const MOCK_VARIABLE = /^AWP_CONFORMANCE_MOCK_/;

/** Why a launch clause has nothing to judge: no launch at all, or (argument clauses) no launch whose arguments split. */
const none = (run: HostRun): Unjudged =>
  run.processes.length === 0 ? noLaunch(run) : skip("the arguments have no `--model` tail to judge this by (see host/launch/argv-order)");

/** A check on the split arguments of every launch; launches whose arguments do not split are argv-order's. */
function argsCheck(clause: string, judge: (args: LaunchArgs, run: HostRun) => Problem[] | undefined): Check<HostRun> {
  return perProcess(
    clause,
    (process, run) => {
      const args = splitLaunchArgs(process.launch.mockArgs);
      return args === undefined ? undefined : judge({ ...args, head: withoutTailPairs(args.head) }, run);
    },
    none,
  );
}

const startsWith = (args: readonly string[], prefix: readonly string[]): boolean => prefix.every((arg, i) => args[i] === arg);

function compatProblems(args: LaunchArgs, run: HostRun): Problem[] {
  const known = run.expect.args !== undefined && startsWith(args.head, run.expect.args) ? run.expect.args.length : 0;
  const mode = run.expect.mode ?? shownMode(args.head, known);
  const beyondPrefix = args.head.slice(known);
  if (mode === "awp-jsonl") {
    const found = beyondPrefix.filter((token) => COMPAT_FLAG_NAMES.includes(token));
    if (found.length === 0) return [];
    const hint = run.expect.args === undefined ? "; if the operator configured them as prefix arguments, give --expect-args-json" : "";
    return [{ message: `awp-jsonl launch carries stream-json compatibility flags: ${found.join(" ")}${hint}`, expected: "no compatibility flag", seen: shown(args.head) }];
  }
  const expected = STREAM_JSON_FLAGS.join(" ");
  if (!endsWithCompatFlags(args.head)) return [{ message: "stream-json launch without the exact compatibility flags right before --model", expected, seen: shown(args.head.slice(-STREAM_JSON_FLAGS.length)) }];
  const extra = beyondPrefix.slice(0, beyondPrefix.length - STREAM_JSON_FLAGS.length).filter((token) => COMPAT_FLAG_NAMES.includes(token));
  return extra.length === 0 || run.expect.args === undefined ? [] : [{ message: `compatibility flags appear twice: ${extra.join(" ")} before the block`, expected, seen: shown(args.head) }];
}

function prefixProblems(args: LaunchArgs, run: HostRun): Problem[] {
  const prefix = prefixOf(args.head);
  const problems: Problem[] = [];
  if (prefix.length > LIMITS.maxArgs) problems.push({ message: `${prefix.length} prefix arguments (the launcher allows at most ${LIMITS.maxArgs})` });
  prefix.forEach((arg, i) => {
    if (arg.length > LIMITS.maxArgChars) problems.push({ message: `prefix argument ${i + 1} has ${arg.length} characters (at most ${LIMITS.maxArgChars})` });
  });
  const expected = run.expect.args;
  // After the configured prefix only compatibility tokens may follow: how they stand is compat-flags' to judge.
  if (expected !== undefined && !(startsWith(args.head, expected) && args.head.slice(expected.length).every((token) => (STREAM_JSON_FLAGS as readonly string[]).includes(token)))) {
    problems.push({ message: "the prefix arguments differ from the configured ones (--expect-args-json)", expected: shown(expected), seen: shown(prefix) });
  }
  return problems;
}

function modelProblems(model: string, run: HostRun): Problem[] {
  const expected = run.expect.model;
  if (expected !== undefined) return model === expected ? [] : [{ message: "--model differs from the configured model (--expect-model)", expected: quote(expected), seen: quote(model) }];
  if (model.length < 1 || model.length > LIMITS.maxModelChars) return [{ message: `the model id has ${model.length} characters (1..${LIMITS.maxModelChars})`, seen: quote(model) }];
  if (/[\u0000-\u001f\u007f]/.test(model)) return [{ message: "the model id contains a control character", seen: quote(model) }];
  return model.trim() === model ? [] : [{ message: "the model id has white space around it (the launcher trims it)", seen: quote(model) }];
}

function orderProblems(process: HostProcess, run: HostRun): Problem[] {
  const args = process.launch.mockArgs;
  const split = splitLaunchArgs(args);
  const expected = run.expect.args;
  const known = split !== undefined && expected !== undefined && startsWith(split.head, expected) ? expected.length : 0;
  const misplaced = split?.head.slice(known).filter((token) => TAIL_FLAGS.includes(token) || (known > 0 && token === "--model")) ?? [];
  if (split !== undefined && misplaced.length === 0) return [];
  const where = split === undefined ? "the arguments do not end with" : `${misplaced.join(" ")} stands before --model; the arguments must end with`;
  return [{ message: `${where} --model <model> [--resume <id>] [--mcp-config <path>], in that order`, seen: shown(args) }];
}

/** The value after --resume, wherever it stands (its place is argv-order's to judge). */
function resumeProblems(process: HostProcess, run: HostRun): Problem[] | undefined {
  const args = process.launch.mockArgs;
  const at = args.indexOf("--resume");
  if (at === -1) return undefined;
  const value = args[at + 1];
  const expected = run.expect.resume;
  if (value === undefined || !LIMITS.sessionId.test(value)) return [{ message: "the --resume value is not a session id of [A-Za-z0-9._:-]{1,256}", seen: value === undefined ? "(nothing after --resume)" : quote(value) }];
  return expected === undefined || value === expected ? [] : [{ message: "--resume differs from the stored session id (--expect-resume)", expected: quote(expected), seen: quote(value) }];
}

/** --expect-resume given but no launch resumed: a failure shown on the first launch. */
const resumeCheck: Check<HostRun> = {
  clause: RESUME,
  judge: (run) => {
    const each = perProcess(RESUME, resumeProblems, () => notApplicable("no launch of the record resumes: resume a conversation in the host (the mock gives a session id on its first turn) and give --expect-resume ID")).judge(run);
    const first = run.processes[0];
    if (each.outcome === "judged" || run.expect.resume === undefined || first === undefined) return each;
    const problem = { message: "no launch passes --resume, but the host was to resume (--expect-resume)", expected: `--resume ${run.expect.resume}`, seen: shown(first.launch.mockArgs) };
    return { outcome: "judged", judged: 1, findings: [hostFinding(RESUME, first, problem)] };
  },
};

function mcpProblems(process: HostProcess): Problem[] | undefined {
  const args = process.launch.mockArgs;
  const at = args.indexOf("--mcp-config");
  if (at === -1) return undefined;
  const config = process.launch.mcpConfig;
  if (at === args.length - 1 || config === undefined || config === null) return [{ message: "--mcp-config comes without a path after it", seen: shown(args.slice(at)) }];
  if (!config.exists) return [{ message: `the --mcp-config file ${quote(config.path)} does not exist when the CLI starts` }];
  return config.json ? [] : [{ message: `the --mcp-config file ${quote(config.path)} does not hold a JSON object` }];
}

function envAllowlistProblems(launch: LaunchEvent, run: HostRun): Problem[] {
  const configured = new Set(Object.keys(run.expect.env ?? {}));
  const allowed = new Set<string>(ENV_ALLOWLIST);
  const extra = Object.keys(launch.env).filter((name) => !allowed.has(name) && !configured.has(name) && !MOCK_VARIABLE.test(name)).sort();
  if (extra.length === 0) return [];
  const hint = run.expect.env === undefined ? "; if the host was configured with them (AWP_AGENT_CLI_ENV_JSON), give --expect-env-json" : "";
  return [{ message: `${extra.length} environment name${extra.length === 1 ? " is" : "s are"} neither allowlisted nor configured${hint}`, expected: "only the allowlist and the configured entries", seen: extra.slice(0, 20).join(", ") }];
}

function envConfiguredProblems(launch: LaunchEvent, run: HostRun): Problem[] | undefined {
  const entries = Object.entries(run.expect.env ?? {});
  return entries.length === 0 ? undefined : envEntryProblems(launch, entries);
}

/** The configured entries missing from the launch's environment or holding another value (a redacted value counts as present). */
export function envEntryProblems(launch: LaunchEvent, entries: readonly [string, string][]): Problem[] {
  return entries.flatMap(([name, value]): Problem[] => {
    const got = launch.env[name];
    if (got === undefined) return [{ message: `the configured entry ${name} is missing` }];
    if (got === REDACTED_VALUE || got === value) return [];
    const secret = SECRET_ENV_NAME.test(name);
    return [{ message: `${name} has another value than configured${secret ? " (values not shown)" : ""}`, ...(secret ? {} : { expected: quote(value), seen: quote(got) }) }];
  });
}

function remoteProblems(launch: LaunchEvent, run: HostRun): Problem[] {
  if (run.expect.remoteOptIn) return [];
  const env = Object.fromEntries(Object.entries(launch.env).filter(([, value]) => value !== REDACTED_VALUE));
  return urlsOf(launch.mockArgs, env, "argument")
    .filter(remote)
    .map((use) => ({ message: `${use.where} points at ${use.url.host} off this machine, and the host has no remote opt-in (give --remote-opt-in if it runs with AWP_AGENT_REMOTE_API_OPT_IN=1)` }));
}

const STREAM_OK = new Set(["pipe", "socket"]);

function pipeProblems(launch: LaunchEvent): Problem[] {
  return (["stdin", "stdout"] as const).flatMap((name) => {
    const stream = launch[name];
    return STREAM_OK.has(stream.kind) && !stream.isTTY ? [] : [{ message: `${name} is ${stream.isTTY ? "a terminal" : `a ${stream.kind}`}, not a pipe or socket the host holds`, expected: "pipe or socket", seen: stream.kind }];
  });
}

export const launchChecks: Check<HostRun>[] = [
  perProcess(`${ID}/no-shell`, shellParent, (run) => (run.processes.length === 0 ? noLaunch(run) : skip(OFF_LINUX))),
  perProcess(`${ID}/absolute-executable`, (p) => {
    const path = p.launch.argv[0] ?? "";
    return isAbsolute(path) ? [] : [{ message: `the host ran ${quote(path)}, a relative path`, expected: "an absolute path" }];
  }, none),
  perProcess(`${ID}/argv-order`, orderProblems, none),
  argsCheck(`${ID}/compat-flags`, compatProblems),
  argsCheck(`${ID}/prefix-args`, prefixProblems),
  argsCheck(`${ID}/model-unchanged`, (args, run) => modelProblems(args.model, run)),
  resumeCheck,
  perProcess(`${ID}/mcp-config-pair`, mcpProblems, () => notApplicable("no launch passes --mcp-config: configure MCP endpoints in the host to judge it")),
  perProcess(`${ID}/env-allowlist`, (p, run) => envAllowlistProblems(p.launch, run), none),
  perProcess(`${ID}/env-configured`, (p, run) => envConfiguredProblems(p.launch, run), () => notApplicable("give --expect-env-json '{...}' (the host's AWP_AGENT_CLI_ENV_JSON) to compare the configured entries")),
  perProcess(`${ID}/remote-url-opt-in`, (p, run) => remoteProblems(p.launch, run), none),
  perProcess(`${ID}/stdio-pipes`, (p) => pipeProblems(p.launch), none),
];

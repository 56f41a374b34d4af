import { isAbsolute } from "node:path";
import type { Check } from "../../report/judge.js";
import type { Finding, Judgement } from "../../report/types.js";
import { LIMITS, type LaunchFacts } from "../launch.js";
import { notApplicable, OFFLINE, type AgentRun } from "./helpers.js";

const ID = "agent-cli/launch";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const SECRET_FLAG = /^--?(api[-_]?key|token|secret|password|passwd|auth(orization)?)$/i;
const SECRET_VALUE = /^(sk-[A-Za-z0-9_-]{12,}|Bearer\s+\S+|gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-\S+|AKIA[0-9A-Z]{16})$|(api[-_]?key|token|secret|password|passwd)=\S+/i;

function launchFinding(clause: string, facts: LaunchFacts, message: string, seen?: string): Finding {
  return {
    clause,
    message,
    scenario: `launch configuration (${facts.source === "env" ? "AWP_AGENT_CLI_* variables" : "command line"})`,
    ...(seen !== undefined ? { seen } : {}),
    evidence: [{ stream: "process", excerpt: `executable ${facts.executable}` }],
    foundBy: "scenario",
  };
}

/** A launch clause judges the configuration once; offline runs have none. */
function launchCheck(clause: string, judge: (facts: LaunchFacts) => string[] | Judgement): Check<AgentRun> {
  return {
    clause,
    judge: (run) => {
      if (run.launch === undefined) return OFFLINE;
      const facts = run.launch;
      const result = judge(facts);
      if (!Array.isArray(result)) return result;
      return { outcome: "judged", judged: 1, findings: result.map((message) => launchFinding(clause, facts, message)) };
    },
  };
}

export interface UrlUse {
  where: string;
  url: URL;
}

/** http(s) URLs anywhere in the prefix args and the child environment values. */
export function urlsIn(facts: LaunchFacts): UrlUse[] {
  return urlsOf(facts.prefixArgs, facts.env, "prefix argument");
}

/** http(s) URLs anywhere in arguments (named `argWord N`, from 1) and environment values. */
export function urlsOf(args: readonly string[], env: Readonly<Record<string, string>>, argWord: string): UrlUse[] {
  const found: UrlUse[] = [];
  const scan = (text: string, where: string): void => {
    for (const match of text.matchAll(/\bhttps?:\/\/[^\s"'<>]+/gi)) {
      try {
        found.push({ where, url: new URL(match[0]) });
      } catch {
        // Not a parsable URL: the Desktop would not treat it as one either.
      }
    }
  };
  args.forEach((arg, index) => scan(arg, `${argWord} ${index + 1}`));
  for (const [name, value] of Object.entries(env)) scan(value, `env ${name}`);
  return found;
}

/** Whether a URL points off this machine (its host is not localhost, 127.0.0.1 or [::1]). */
export const remote = (use: UrlUse): boolean => !LOOPBACK.has(use.url.hostname);

/** The http(s) URLs of the configuration that point off this machine. */
export function remoteUrls(facts: LaunchFacts): UrlUse[] {
  return urlsIn(facts).filter(remote);
}

/**
 * Why the kit launches nothing: what the Desktop would refuse to start, or a configuration
 * that hands the CLI a non-loopback URL (the kit never does: every run stays on this machine).
 */
export function launchRefusal(facts: LaunchFacts): string | undefined {
  const file = facts.file;
  if (!(file.exists && file.isFile && file.executable)) return `the kit did not launch the CLI: ${facts.executable} is not a regular executable file (see agent-cli/launch/regular-executable)`;
  const far = remoteUrls(facts)[0];
  if (far !== undefined) return `the kit did not launch the CLI: ${far.where} points at ${far.url.host}, and the kit never hands a candidate a URL off this machine; point it at {{fixture.openai}} or {{fixture.anthropic}}`;
  return undefined;
}

/** Positions of prefix arguments that look like secrets (a key-like value, or the value after --token and the like). */
export function secretArgIndexes(args: readonly string[]): number[] {
  return args.flatMap((arg, i) => {
    const previous = args[i - 1];
    return SECRET_VALUE.test(arg) || (previous !== undefined && SECRET_FLAG.test(previous)) ? [i] : [];
  });
}

export const launchChecks: Check<AgentRun>[] = [
  launchCheck(`${ID}/absolute-executable`, (f) => (isAbsolute(f.executable) ? [] : [`${f.executable} is not an absolute path (cli_executable_must_be_absolute)`])),
  launchCheck(`${ID}/regular-executable`, (f) =>
    !f.file.exists ? [`${f.executable} does not exist`] : !f.file.isFile ? [`${f.executable} is not a regular file`] : !f.file.executable ? [`${f.executable} is not executable`] : [],
  ),
  launchCheck(`${ID}/not-a-symlink`, (f) => (f.file.isSymlink ? [`${f.executable} is a symbolic link; configure the real file`] : [])),
  launchCheck(`${ID}/args-limits`, (f) => [
    ...(f.prefixArgs.length > LIMITS.maxArgs ? [`${f.prefixArgs.length} prefix arguments (at most ${LIMITS.maxArgs})`] : []),
    ...f.prefixArgs.flatMap((arg, i) => (arg.length > LIMITS.maxArgChars ? [`prefix argument ${i + 1} has ${arg.length} characters (at most ${LIMITS.maxArgChars})`] : [])),
  ]),
  launchCheck(`${ID}/env-limits`, (f) => {
    const entries = Object.entries(f.env);
    return [
      ...(entries.length > LIMITS.maxEnvEntries ? [`${entries.length} environment entries (at most ${LIMITS.maxEnvEntries}: cli_env_too_large)`] : []),
      ...entries.flatMap(([key, value]) => [
        ...(LIMITS.envKey.test(key) ? [] : [`environment key ${JSON.stringify(key)} is not a valid name (invalid_cli_env_entry)`]),
        ...(value.length > LIMITS.maxEnvValueChars ? [`environment value of ${key} has ${value.length} characters (cli_env_value_too_large)`] : []),
      ]),
    ];
  }),
  launchCheck(`${ID}/model-id`, (f) => {
    const model = f.model.trim();
    if (model.length < 1 || model.length > LIMITS.maxModelChars) return [`the model id has ${model.length} characters after trimming (1..${LIMITS.maxModelChars})`];
    return /[\u0000-\u001f\u007f]/.test(model) ? ["the model id contains a control character (invalid_model)"] : [];
  }),
  launchCheck(`${ID}/protocol-name`, (f) => {
    if (f.source !== "env") return notApplicable("only judged with --from-env (AWP_AGENT_CLI_PROTOCOL)");
    return f.protocol === undefined || ["awp-jsonl", "stream-json", "passthrough"].includes(f.protocol) ? [] : [`AWP_AGENT_CLI_PROTOCOL=${JSON.stringify(f.protocol)} is invalid_cli_protocol`];
  }),
  launchCheck(`${ID}/remote-url-opt-in`, (f) =>
    f.remoteOptIn ? [] : urlsIn(f).filter(remote).map((u) => `${u.where} points at ${u.url.host} without AWP_AGENT_REMOTE_API_OPT_IN=1 (remote_api_requires_explicit_opt_in)`),
  ),
  launchCheck(`${ID}/no-plain-http-remote`, (f) =>
    urlsIn(f).filter((u) => remote(u) && u.url.protocol === "http:").map((u) => `${u.where} uses plain http to ${u.url.host}`),
  ),
  launchCheck(`${ID}/no-secrets-in-args`, (f) =>
    secretArgIndexes(f.prefixArgs).map((i) => `prefix argument ${i + 1} looks like a secret (value not shown); pass it through the environment`),
  ),
];

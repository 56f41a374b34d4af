import type { AgentMode } from "../core/agent-cli/types.js";
import { KitError } from "../core/errors.js";
import { printable } from "../core/inputs/index.js";
import type { JsonObject } from "../core/provider/types.js";
import type { Finding } from "../core/report/types.js";
import { shellQuote } from "../runner/provider/reproduce.js";
import { runAgentSteps } from "./agent-cli/index.js";
import { evaluateProviderCase } from "./provider-run.js";
import { deserializeCase, KIT_ENV_VALUES, type ReplayFile } from "./replay.js";
import type { SerializedProviderCase } from "./types.js";

/** Reruns the one case of a replay file against argv and returns every finding it produces. */
export async function replayCase(file: ReplayFile, argv: string[]): Promise<Finding[]> {
  if (file.protocol === "provider") {
    const c = deserializeCase(file.case as SerializedProviderCase);
    const timeoutMs = file.candidate.timeoutMs ?? (c.budgetMs ?? 5000) + 1000;
    return evaluateProviderCase(c, { argv, config: (file.candidate.config ?? {}) as JsonObject, timeoutMs });
  }
  const [executable, ...prefixArgs] = argv;
  const steps = "steps" in file.case ? file.case.steps : [];
  const { findings } = await runAgentSteps(steps, {
    config: { executable: executable ?? "", prefixArgs, mode: (file.candidate.mode ?? "awp-jsonl") as AgentMode, model: file.candidate.model ?? "awp-conformance-model", env: file.candidate.env ?? {} },
    turnTimeoutMs: file.candidate.turnTimeoutMs ?? 10_000,
  });
  return findings;
}

/** How replay may ask before it runs what a file names. */
export interface ReplayConsent {
  /** --yes: run what the file names without asking. */
  yes: boolean;
  /** stdin is a terminal: a person can be asked. */
  interactive: boolean;
  /** Asks one question on the terminal; resolves to the answer line ("" on end of input). */
  ask(question: string): Promise<string>;
  /** Shows text to the person (stderr: stdout stays the verdict). */
  show(text: string): void;
}

const quote = (arg: string): string => printable(shellQuote(arg));

/**
 * The argv a replay runs, after consent. A replay file may come from anyone, and what it
 * names decides what runs: its recorded command (when no candidate is given) and any
 * environment value it sets other than the kit's own placeholders. Those run only with
 * --yes, or after a "y" on a terminal; otherwise this throws a usage error (exit 2) that
 * says how to replay against a candidate of one's own.
 */
export async function consentedArgv(file: ReplayFile, path: string, candidate: string[] | undefined, consent: ReplayConsent): Promise<string[]> {
  const argv = candidate ?? file.candidate.argv;
  // A provider replay launches with the kit's environment; only an agent-cli replay applies the file's.
  const env = file.protocol === "agent-cli" ? Object.entries(file.candidate.env ?? {}).filter(([, value]) => !KIT_ENV_VALUES.has(value)) : [];
  if (candidate === undefined && argv.length === 0) throw new KitError("usage", `${path}: the replay file names no candidate`);
  if (candidate !== undefined && env.length === 0) return argv;
  const lines = [
    candidate === undefined ? `The replay file ${path} names the command to run:` : `The replay file ${path} sets environment variables for ${quote(argv[0] ?? "")}:`,
    ...(candidate === undefined ? [`  ${argv.map(quote).join(" ")}`] : []),
    ...env.map(([name, value]) => `  env ${name}=${quote(value)}`),
  ];
  const what = candidate === undefined ? "the recorded command" : "the recorded environment";
  if (consent.yes) {
    consent.show(`${lines.join("\n")}\nRunning ${what} (--yes).\n`);
    return argv;
  }
  if (consent.interactive) {
    consent.show(`${lines.join("\n")}\nA replay file runs what it names: run it only if you trust where it came from.\n`);
    const answer = (await consent.ask(`Run ${what}? [y/N] `)).trim();
    if (/^y(es)?$/i.test(answer)) return argv;
    throw new KitError("usage", `${path}: not run (answered ${printable(JSON.stringify(answer))}); give your own candidate: awp-conformance replay ${path} ./candidate`);
  }
  const named = candidate === undefined ? `the file names the command to run (${argv.map(quote).join(" ")}${env.length > 0 ? ` with ${env.map(([name, value]) => `${name}=${quote(value)}`).join(" ")}` : ""})` : `the file sets environment variables for the candidate (${env.map(([name, value]) => `${name}=${quote(value)}`).join(" ")})`;
  const how = candidate === undefined ? `give the candidate to replay against (awp-conformance replay ${path} ./candidate [args...]), or pass --yes to run the recorded command` : "pass --yes to run with them";
  throw new KitError("usage", `${path}: not run: ${named}, and a replay file may come from anyone; ${how}`);
}

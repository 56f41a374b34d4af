/**
 * What `awp-conformance matrix` runs, planned and checked before the first launch: the
 * configuration file's candidates (config/run.ts plans them as `run` does), candidates given as
 * --candidate NAME=PATH, each with its own program arguments (--candidate-arg NAME=ARG) and its
 * own run options (--candidate-option NAME=OPTION, read by run's own option parser, so an option
 * means the same in both commands). The matrix's shared options, and --candidate-option *=OPTION,
 * apply to every candidate; a candidate's own replace them. Every candidate goes through run's pre-flight.
 */
import { join } from "node:path";
import yargs from "yargs";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { checkSelection } from "../core/clauses/patterns.js";
import { KitError } from "../core/errors.js";
import { didYouMean } from "../core/nearest.js";
import type { Protocol, ReportProtocol } from "../core/report/types.js";
import { overlayFlags } from "../config/apply.js";
import { configCandidateArgs, configFileFor, preflightRun } from "../config/run.js";
import type { ConfigCandidate, KitConfig } from "../config/types.js";
import { oneValueEach } from "./args.js";
import { runArgsOf, withRunOptions } from "./commands/run.js";
import type { RunArgs } from "./run-args.js";

/** The formats every candidate's run writes into its folder: what the matrix reads and links. */
export const CANDIDATE_REPORTERS: readonly string[] = ["json", "html", "badge"];

/** A name that is also a folder name (the configuration file's rule). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface PlannedCandidate {
  name: string;
  /** Its folder under --out. */
  dir: string;
  protocol: ReportProtocol;
  args: RunArgs;
}

export interface PlanInput {
  /** --candidate values: NAME=PATH, or NAME of the configuration file. */
  candidates: readonly string[];
  candidateArgs: readonly string[];
  candidateOptions: readonly string[];
  /** The matrix's own options as run arguments (those given, and the lists). */
  shared: RunArgs;
  out: string;
  /** --config FILE, false for --no-config. */
  config: string | false | undefined;
  /** Whether report files were given (then the file's candidates run only when --config names it). */
  withReports: boolean;
  /** Progress lines are off when several candidates run at once (they would interleave). */
  quiet: boolean;
  cwd: string;
}

/** NAME=VALUE split at the first "=", or undefined when there is none. */
function split(value: string): { name: string; value: string } | undefined {
  const at = value.indexOf("=");
  return at <= 0 ? undefined : { name: value.slice(0, at), value: value.slice(at + 1) };
}

/** The values given per candidate name (--candidate-arg, --candidate-option), every name checked against the candidates. */
function perName(flag: string, values: readonly string[], names: readonly string[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const raw of values) {
    const part = split(raw);
    if (part === undefined) throw new KitError("usage", `${flag} ${raw}: give NAME=VALUE, NAME being a candidate's name`);
    if (!names.includes(part.name)) throw new KitError("usage", `${flag} ${raw}: no candidate named "${part.name}"${didYouMean(part.name, names)} (the candidates: ${names.filter((n) => n !== "*").join(", ") || "none"})`);
    by.set(part.name, [...(by.get(part.name) ?? []), part.value]);
  }
  return by;
}

/** yargs' "Unknown arguments: x, y" as the candidate's token it is about (an option, or a stray word). */
function unknownToken(message: string, tokens: readonly string[]): string | undefined {
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (match === null) return undefined;
  const names = (match[1] ?? "").split(", ");
  return tokens.find((t) => names.some((n) => [n, `no-${n}`].includes(t.replace(/^-+/, "").split("=")[0] ?? "")));
}

/** A candidate's own run options, read by run's option parser; no positional (its program arguments are --candidate-arg). */
export function parseCandidateOptions(name: string, tokens: readonly string[]): RunArgs {
  const fail = (message: string): KitError => new KitError("usage", `--candidate-option ${name}: ${message}`);
  const parsed = withRunOptions(yargs([...tokens]).parserConfiguration({ "populate--": true, "greedy-arrays": false }))
    .strict()
    .check(oneValueEach, true)
    .exitProcess(false)
    .help(false)
    .version(false)
    .fail((message, error) => {
      if (error instanceof KitError) throw fail(error.message);
      const token = unknownToken(message, tokens);
      if (token === undefined) throw fail(message);
      throw fail(token.startsWith("-") ? `unknown option ${token} (awp-conformance run --help lists the options a candidate takes)` : `${JSON.stringify(token)} is no option: give the program's own arguments with --candidate-arg ${name}=ARG`);
    })
    .parseSync() as Record<string, unknown>;
  if (parsed.config !== undefined || parsed.out !== undefined) throw fail("--config and --out are the matrix's own options, not a candidate's");
  return runArgsOf({ ...parsed, "--": [] });
}

interface Wanted {
  name: string;
  /** The file's candidate of that name, or a path. */
  config?: ConfigCandidate;
  path?: string;
}

/** The candidates the command line and the configuration file ask for, in order. */
async function wanted(input: PlanInput): Promise<{ list: Wanted[]; config?: KitConfig }> {
  const byPath = input.candidates.map((raw) => ({ raw, part: split(raw) }));
  const bare = byPath.filter((c) => c.part === undefined).map((c) => c.raw);
  const useFile = bare.length > 0 || (input.candidates.length === 0 && (typeof input.config === "string" || !input.withReports));
  const file = useFile ? configFileFor(input.config, input.cwd) : undefined;
  if (bare.length > 0 && file === undefined) throw new KitError("usage", `--candidate ${bare[0]}: give NAME=PATH (there is no configuration file to find the name in)`);
  const config = file === undefined ? undefined : (await import("../config/load.js")).loadConfig(file);
  const fromFile = config?.candidates ?? [];
  const list: Wanted[] = [];
  if (input.candidates.length === 0) {
    const kept = input.shared.protocol === undefined ? fromFile : fromFile.filter((c) => c.protocol === input.shared.protocol);
    list.push(...kept.map((c) => ({ name: c.name, config: c })));
  }
  for (const { raw, part } of byPath) {
    if (part === undefined) {
      const named = fromFile.find((c) => c.name === raw);
      if (named === undefined) throw new KitError("usage", `--candidate ${raw}: ${config?.file ?? "the configuration file"} has no candidate of that name${didYouMean(raw, fromFile.map((c) => c.name))}; give NAME=PATH for a program`);
      list.push({ name: raw, config: named });
      continue;
    }
    if (!NAME.test(part.name)) throw new KitError("usage", `--candidate ${raw}: the name "${part.name}" names its report folder: letters, digits, '.', '_' and '-', at most 64`);
    if (part.value === "") throw new KitError("usage", `--candidate ${raw}: the path is empty (an unset variable?)`);
    list.push({ name: part.name, path: part.value });
  }
  const seen = new Set<string>();
  for (const w of list) {
    if (seen.has(w.name)) throw new KitError("usage", `two candidates are named "${w.name}": names must be unique (they name the report folders)`);
    seen.add(w.name);
  }
  return config === undefined ? { list } : { list, config };
}

/** Every candidate as run arguments, checked (options, files, the program, its folder, the clause patterns) before any starts. */
export async function planCandidates(input: PlanInput): Promise<PlannedCandidate[]> {
  const { list, config } = await wanted(input);
  // A candidate's --baseline (its own option, or its key in the file) is checked with the others.
  const { checkReportInputs: reports } = await import("./preflight-reports.js");
  const names = list.map((w) => w.name);
  const programArgs = perName("--candidate-arg", input.candidateArgs, names);
  // --candidate-option '*=OPTION': a run option for every candidate (one the matrix does not take itself).
  const options = perName("--candidate-option", input.candidateOptions, [...names, "*"]);
  const forAll = overlayFlags(input.shared, parseCandidateOptions("*", options.get("*") ?? []), false);
  return list.map((w) => {
    const own = parseCandidateOptions(w.name, options.get(w.name) ?? []);
    const out = join(input.out, w.name);
    // The matrix's options, then the candidate's own over them; the formats are the matrix's.
    const flags = { ...overlayFlags(forAll, own, false), out, reporter: [...CANDIDATE_REPORTERS], color: false, ...(input.quiet ? { quiet: true } : {}) };
    const extra = programArgs.get(w.name) ?? [];
    let args: RunArgs;
    if (w.config !== undefined) {
      // The file says a candidate's protocol; --protocol only picks the file's candidates when none is named.
      const { protocol: _picks, ...fileFlags } = flags;
      args = configCandidateArgs(w.config, config as KitConfig, { ...fileFlags, out }, true, input.cwd, reports);
      args = { ...args, rest: [...args.rest, ...extra] };
    } else {
      if (flags.protocol !== "provider" && flags.protocol !== "agent-cli") {
        throw new KitError("usage", `--candidate ${w.name}=${w.path ?? ""}: which protocol? Give --protocol for every candidate, or --candidate-option ${w.name}=--protocol=provider (or agent-cli)`);
      }
      args = preflightRun({ ...flags, candidate: w.path as string, rest: extra }, input.cwd, reports);
    }
    const protocol = args.protocol as Protocol;
    checkSelection({ clause: args.clause, skip: args.skip }, loadCatalogue(protocol).map((c) => c.id), `the ${protocol} catalogue (candidate ${w.name})`, [`awp-conformance list --protocol ${protocol}`]);
    return { name: w.name, dir: w.name, protocol, args };
  });
}

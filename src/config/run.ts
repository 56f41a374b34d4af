/**
 * `awp-conformance run` with a configuration file: the file found upward from the working folder
 * (or --config FILE; --no-config ignores it), its candidates run one after another, each into its
 * own report folder (<out>/<name>/ when several run, <out>/ when one), the exit code the worst.
 * `run NAME` (or --candidate NAME) picks one; --protocol keeps that protocol's. A candidate given
 * by path runs as before, with the file's reporters, out and docsUrl. Without a file, run is as before.
 */
import { basename, dirname, join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { KitError } from "../core/errors.js";
import { interrupted } from "../core/interrupt.js";
import { worseExitCode, type VerdictExitCode } from "../core/report/judge.js";
import { candidateOptionsGiven } from "../cli/bundled.js";
import { kebabCase } from "../cli/args.js";
import { preflight, type ReportCheck } from "../cli/preflight.js";
import type { RunArgs } from "../cli/run.js";
import { candidateArgs, flagGiven, overlayFlags } from "./apply.js";
import { findConfig } from "./find.js";
import { closestName } from "./suggest.js";
import type { ConfigCandidate, KitConfig } from "./types.js";

export interface ConfigRunOptions {
  /** --config FILE, or false for --no-config. */
  config?: string | false;
  /** The kit's own arguments (to tell a given --reporter from its default); default process.argv. */
  argv?: readonly string[];
  cwd?: string;
  /** Where the lines about the configuration go (default stderr). */
  say?: (line: string) => void;
  /** Where the summary of several candidates goes (default stdout). */
  print?: (text: string) => void;
}

/** The configuration file to use, if any: --config FILE (which must exist), else the nearest one. */
export function configFileFor(option: string | false | undefined, cwd: string): string | undefined {
  if (option === false) return undefined;
  if (option === undefined) return findConfig(cwd);
  const path = resolve(cwd, option);
  if (!existsSync(path)) throw new KitError("usage", `--config ${option}: no such file (looked at ${path})`);
  return path;
}

/** RunArgs keys that are no option of run (or are checked as such elsewhere). */
const NOT_OPTIONS = new Set(["rest", "color", "bundled"]);

/**
 * The checks run's command line gets before the first launch, on what the file and the flags
 * together ask for: options of the other protocol, input files, the candidate (a bare name
 * looked up on PATH; the file found is what is launched), the --baseline report (with `reports`)
 * and the report folder, made and probed.
 */
export function preflightRun(args: RunArgs, cwd: string, reports?: ReportCheck): RunArgs {
  const argv: Record<string, unknown> = { "--": [] };
  for (const [key, value] of Object.entries(args)) if (!NOT_OPTIONS.has(key)) argv[kebabCase(key)] = value;
  preflight("run", argv, { cwd, ...(reports !== undefined ? { reports } : {}) });
  return { ...args, ...(typeof argv.candidate === "string" ? { candidate: argv.candidate } : {}) };
}

/**
 * A candidate of the file as run arguments: its keys, the flags over them (`flags.out` is its
 * report folder), checked by run's pre-flight. `run` and `matrix` both plan candidates so.
 */
export function configCandidateArgs(candidate: ConfigCandidate, config: KitConfig, flags: RunArgs & { out: string }, reporterGiven: boolean, cwd: string, reports?: ReportCheck): RunArgs {
  return preflightRun(overlayFlags(candidateArgs(candidate, config, flags.out), flags, reporterGiven), cwd, reports);
}

/**
 * Runs `each` on the items one after another (jobs 1) or `jobs` at a time, in order of start;
 * once the kit is interrupted, no item is started (those running finish). Resolves when all
 * started ones have; the first error thrown is thrown after them.
 */
export async function runEach<T>(items: readonly T[], jobs: number, each: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && interrupted() === undefined && failed === undefined) {
      const index = next++;
      try {
        await each(items[index] as T, index);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  if (failed !== undefined) throw failed.error;
}

const EXIT_MEANING: Readonly<Record<VerdictExitCode, string>> = { 0: "conformant", 1: "not conformant (exit 1)", 4: "incomplete (exit 4)" };

/** The file's candidates the command line picks. */
function pick(config: KitConfig, flags: RunArgs): ConfigCandidate[] {
  const names = config.candidates.map((c) => c.name);
  if (flags.candidate !== undefined) {
    const named = config.candidates.find((c) => c.name === flags.candidate);
    if (named !== undefined) return [named];
    return [];
  }
  const kept = flags.protocol === undefined ? config.candidates : config.candidates.filter((c) => c.protocol === flags.protocol);
  if (kept.length === 0) throw new KitError("usage", `--protocol ${flags.protocol}: ${config.file} has no ${flags.protocol} candidate (it has ${names.join(", ")})`);
  return kept;
}

/** A candidate argument that is neither a name of the file nor a file, but close to a name: a typo. */
function checkNotATypo(config: KitConfig, candidate: string, cwd: string): void {
  if (candidate.includes("/") || existsSync(resolve(cwd, candidate))) return;
  const meant = closestName(candidate, config.candidates.map((c) => c.name));
  if (meant !== undefined) throw new KitError("usage", `no candidate named "${candidate}" in ${config.file} (did you mean "${meant}"?)`);
}

/**
 * Runs what the command line and the configuration file together ask for, with `run` (the
 * kit's runCommand). Without a file (or with --no-config) it is `run(flags)` unchanged.
 */
export async function runWithConfig(flags: RunArgs, run: (args: RunArgs) => Promise<number>, options: ConfigRunOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const file = configFileFor(options.config, cwd);
  if (file === undefined) return run(flags);
  // The YAML reader and the schema load only when there is a file to read.
  // The saved reports' reader (for --baseline or a baseline key) loads with the file's reader.
  const [{ loadConfig }, { checkReportInputs: reports }] = await Promise.all([import("./load.js"), import("../cli/preflight-reports.js")]);
  const config = loadConfig(file);
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const reporterGiven = flagGiven(options.argv ?? process.argv.slice(2), "reporter");
  const outRoot = flags.out ?? config.out ?? join(dirname(config.file), "reports");
  // A candidate given by path (or from the environment): the file's output settings only.
  const chosen = flags.fromEnv === true ? [] : pick(config, flags);
  if (chosen.length === 0) {
    if (flags.candidate !== undefined) checkNotATypo(config, flags.candidate, cwd);
    const shared: RunArgs = { ...flags, out: outRoot, reporter: config.reporters ?? ["console", "json"], ...(config.docsUrl !== undefined ? { docsUrl: config.docsUrl } : {}), ...(config.evidence !== undefined ? { evidence: config.evidence } : {}) };
    return run(preflightRun(overlayFlags(shared, { ...flags, out: outRoot }, reporterGiven), cwd, reports));
  }
  const picked: RunArgs = { ...flags };
  delete picked.candidate;
  // A candidate's own settings given as flags, with several candidates to run, are a mistake (--protocol only picks).
  const configuring = candidateOptionsGiven(picked).filter((flag) => flag !== "--protocol");
  if (chosen.length > 1 && configuring.length > 0) {
    throw new KitError("usage", `${configuring.join(", ")} ${configuring.length === 1 ? "configures" : "configure"} one candidate, and ${basename(config.file)} has ${chosen.length} to run (${chosen.map((c) => c.name).join(", ")}): pick one, awp-conformance run NAME`);
  }
  // Every candidate's mistakes are found before the first one is launched.
  const planned = chosen.map((candidate) => {
    const out = chosen.length > 1 ? join(outRoot, candidate.name) : outRoot;
    return { candidate, out, args: configCandidateArgs(candidate, config, { ...picked, out }, reporterGiven, cwd, reports) };
  });
  let worst: VerdictExitCode = 0;
  const lines: string[] = [];
  await runEach(planned, 1, async ({ candidate, out, args }) => {
    say(`awp-conformance: candidate ${candidate.name} (${candidate.protocol}) of ${config.file}`);
    const code = (await run(args)) as VerdictExitCode;
    lines.push(`${candidate.name}: ${EXIT_MEANING[code] ?? `exit ${code}`} (${join(out, "report.json")})`);
    worst = worseExitCode(worst, code);
  });
  if (chosen.length > 1) (options.print ?? ((text: string) => process.stdout.write(text)))(`\nCandidates of ${config.file}:\n${lines.map((l) => `  ${l}`).join("\n")}\n`);
  return worst;
}

/**
 * Everything that can be checked before the first launch, in one place (design.md,
 * "Pre-flight"): numbers that are not numbers, options that do not apply to the protocol or
 * the command, input files that are not there, the candidate (a bare name looked up on PATH),
 * and the report folder (created and proven writable). Each mistake is a usage error (exit 2)
 * naming the option and why; nothing has started yet. Commands declare their needs in
 * option-rules.ts.
 */
import { statSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";
import { KitError } from "../core/errors.js";
import { describeFsError, nodeKind } from "../core/inputs/read.js";
import type { Protocol } from "../core/report/types.js";
import { locateCandidate, resolvedOnPathNote } from "./candidate.js";
import { COMMAND_NEEDS, OPTION_RULES, type CommandNeeds, type InputRule, type OptionRule } from "./option-rules.js";
import { prepareOutDir } from "./out-dir.js";

export type Argv = Record<string, unknown>;

export interface PreflightContext {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Where the one line about a PATH look-up goes (stderr by default). */
  note?: (line: string) => void;
  /**
   * `run` with a configuration file: the candidate may be a name in the file and the report
   * folder the file's, so both are checked once the file is read (config/run.ts), before the
   * first launch all the same.
   */
  deferTargets?: boolean;
  /**
   * The check of saved reports (preflight-reports.ts checkReportInputs), for a command line that
   * names one (namesReports): the caller loads it, so the strict JSON reader and the report
   * schema load only for the commands that read a report.
   */
  reports?: ReportCheck;
}

export type ReportCheck = (needs: CommandNeeds, argv: Argv, cwd: string) => void;

/** The context with every default filled in. */
type SettledContext = Required<Omit<PreflightContext, "deferTargets" | "reports">>;

/** Given on the command line: a value other than nothing, false or an empty list. */
function given(value: unknown): boolean {
  return value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0);
}

/** Whether the command line names a saved report that pre-flight reads (diff OLD NEW, run --baseline). */
export function namesReports(command: string, argv: Argv): boolean {
  return (COMMAND_NEEDS[command]?.reports?.keys ?? []).some((key) => typeof argv[key] === "string" && argv[key] !== "");
}

/** A number option whose text was not a number (yargs hands it on as NaN). */
export function checkNumbers(argv: Argv): void {
  for (const [key, value] of Object.entries(argv)) {
    if (typeof value === "number" && Number.isNaN(value) && key.length > 1 && !/[A-Z]/.test(key)) throw new KitError("usage", `--${key} takes a number`);
  }
}

function fuzzes(argv: Argv): boolean {
  return given(argv["fuzz-runs"]) || given(argv["fuzz-time"]);
}

function protocolName(protocol: Protocol): string {
  return protocol === "agent-cli" ? "an agent CLI" : "a provider";
}

/** Why `rule` refuses its option in this command line, or undefined when it applies. */
function misapplied(rule: OptionRule, command: string, protocol: Protocol | undefined, argv: Argv): string | undefined {
  if (rule.commands !== undefined && !rule.commands.includes(command)) return undefined;
  if (rule.protocols !== undefined && protocol !== undefined && !rule.protocols.includes(protocol)) {
    return `--${rule.option} applies to ${rule.protocols.map((p) => `--protocol ${p}`).join(" or ")} only, and this ${command} checks ${protocolName(protocol)}: leave it out`;
  }
  const excluded = rule.excludes?.options.find((option) => given(argv[option]));
  if (excluded !== undefined) return `--${rule.option} does not combine with --${excluded}: ${rule.excludes?.why ?? "leave one out"}`;
  if (rule.needs !== undefined && !given(argv[rule.needs])) return `--${rule.option} applies only with --${rule.needs}: give --${rule.needs} too, or leave --${rule.option} out`;
  if (rule.fuzzing === true && !fuzzes(argv)) return `--${rule.option} applies only when the run fuzzes: give --fuzz-runs or --fuzz-time too, or leave --${rule.option} out`;
  return undefined;
}

/** The options given that do not apply to this command and protocol: a usage error naming the first. */
export function checkApplicable(command: string, argv: Argv, rules: readonly OptionRule[] = OPTION_RULES): void {
  const needs = COMMAND_NEEDS[command];
  const named = typeof argv.protocol === "string" ? (argv.protocol as Protocol) : undefined;
  if (needs?.protocol !== undefined && named !== undefined && named !== needs.protocol) {
    throw new KitError("usage", `--protocol ${named}: ${command} checks ${protocolName(needs.protocol)} only (--protocol ${needs.protocol})${command === "record" ? "; run --protocol provider saves the requests behind a provider's failures in <out>/requests, each with the command that replays it" : ""}`);
  }
  const protocol = named ?? needs?.protocol;
  for (const rule of rules) {
    if (!given(argv[rule.option])) continue;
    const why = misapplied(rule, command, protocol, argv);
    if (why !== undefined) throw new KitError("usage", why);
  }
}

function statOf(path: string): Stats | undefined | NodeJS.ErrnoException {
  try {
    return statSync(path);
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

function checkInput(rule: InputRule, path: string, cwd: string): void {
  const at = statOf(resolve(cwd, path));
  const what = `${rule.label} ${path}`;
  if (at instanceof Error) {
    if (rule.mayBeNew === true && at.code === "ENOENT") return;
    throw new KitError("usage", `${what}: ${describeFsError(at)}`);
  }
  if (at === undefined) return;
  if (rule.kind === "file" && !at.isFile()) throw new KitError("usage", `${what}: is ${nodeKind(at)}, not a regular file`);
  if (rule.kind === "folder" && !at.isDirectory()) throw new KitError("usage", `${what}: is ${at.isFile() ? "a regular file" : nodeKind(at)}, not a folder`);
  if (rule.kind === "file or folder" && !at.isFile() && !at.isDirectory()) throw new KitError("usage", `${what}: is ${nodeKind(at)}, not a file or folder`);
}

function valuesOf(rule: InputRule, value: unknown): string[] {
  const all = (Array.isArray(value) ? value : given(value) ? [value] : []).map(String);
  const taken = rule.take === "all-but-last" ? all.slice(0, -1) : all;
  return taken.filter((v) => !(rule.stdin ?? []).includes(v));
}

/** Every named input file exists, and is a file (or folder) as the option wants. */
export function checkInputs(needs: CommandNeeds, argv: Argv, cwd: string): void {
  for (const rule of needs.inputs ?? []) {
    for (const path of valuesOf(rule, argv[rule.key])) checkInput(rule, path, cwd);
  }
}

/**
 * The candidate as it will be launched: an absolute, executable regular file (a bare name
 * found on PATH, said once). Written back into argv, so every command launches that file.
 * Nothing to do for a run with no candidate (the bundled examples) or --from-env.
 */
export function locateArgvCandidate(needs: CommandNeeds, argv: Argv, context: SettledContext): void {
  const rule = needs.candidate;
  if (rule === undefined) return;
  if (rule.at === "last") {
    const list = Array.isArray(argv[rule.key]) ? (argv[rule.key] as unknown[]).map(String) : [];
    const last = list.at(-1);
    if (last === undefined || list.length < 2) return;
    argv[rule.key] = [...list.slice(0, -1), located(last, context)];
    return;
  }
  const after = Array.isArray(argv["--"]) ? (argv["--"] as unknown[]).map(String) : [];
  const fromDashes = argv[rule.key] === undefined;
  const name = fromDashes ? after[0] : String(argv[rule.key]);
  if (name === undefined) return;
  argv[rule.key] = located(name, context);
  if (fromDashes) argv["--"] = after.slice(1);
}

/** The further programs a command launches (fuzz --against OTHER), located as the candidate is; each error names its option. */
export function locateArgvPrograms(needs: CommandNeeds, argv: Argv, context: SettledContext): void {
  for (const key of needs.programs ?? []) {
    const value = argv[key];
    if (typeof value !== "string") continue;
    try {
      argv[key] = located(value, context);
    } catch (error) {
      if (error instanceof KitError) throw new KitError(error.code, `--${key}: ${error.message}`);
      throw error;
    }
  }
}

function located(name: string, context: SettledContext): string {
  const { file, onPath } = locateCandidate(name, context.env, context.cwd);
  if (onPath) context.note(`awp-conformance: ${resolvedOnPathNote(name, file)}\n`);
  return file;
}

/** The report folder made and probed; for a file (record --out), its folder probed. */
export function checkOut(needs: CommandNeeds, argv: Argv, cwd: string): void {
  const out = needs.out;
  if (out === undefined) return;
  const value = argv[out.key];
  const path = typeof value === "string" ? value : out.default;
  if (path === undefined) return;
  if (out.kind === "folder") prepareOutDir(path, `--${out.key}`, cwd);
  else prepareOutDir(dirname(resolve(cwd, path)), `--${out.key} ${path}: its folder`, cwd);
}

/**
 * Runs every check of `command` on its parsed options, in order: numbers, applicability, input
 * files, the saved reports among them (diff, run --baseline), the candidate, then the report
 * folder (made last, when all else holds). argv is updated in place (the candidate becomes the
 * file that is launched).
 */
export function preflight(command: string, argv: Argv, context: PreflightContext = {}): Argv {
  const full: SettledContext = { env: context.env ?? process.env, cwd: context.cwd ?? process.cwd(), note: context.note ?? ((line) => process.stderr.write(line)) };
  const needs = COMMAND_NEEDS[command] ?? {};
  checkNumbers(argv);
  checkApplicable(command, argv);
  checkInputs(needs, argv, full.cwd);
  if (namesReports(command, argv)) {
    if (context.reports === undefined) throw new KitError("kit_bug", `the pre-flight of ${command} reads saved reports: its caller gives it the check (preflight-reports.ts)`);
    context.reports(needs, argv, full.cwd);
  }
  if (context.deferTargets === true) return argv;
  if (argv["from-env"] !== true) locateArgvCandidate(needs, argv, full);
  locateArgvPrograms(needs, argv, full);
  checkOut(needs, argv, full.cwd);
  return argv;
}

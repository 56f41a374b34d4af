/**
 * The parsed options of `run` and `fuzz`, in a module of their own: run.ts and fuzz.ts both use
 * them, and neither imports the other's types (cli/ has no import cycle: test/cli/import-cycles).
 */
import type { BoundArgs, LaunchArgs } from "./agent-options.js";
import type { EvidenceArgs } from "./evidence-option.js";
import type { ManagedArgs } from "./managed-options.js";
import type { ReportArgs } from "./report-options.js";

export interface FuzzArgs {
  fuzzRuns?: number;
  fuzzTime?: number;
  seed?: number;
  jobs?: number;
  /** --spawner (runner/native/select.ts): program.ts chooses it from the command line before any command runs, for every candidate; here it is only carried. */
  spawner?: string;
  /** --shard K/N (run and fuzz). */
  shard?: string;
  /** --corpus DIR: saved cases replayed first, new ones kept. */
  corpus?: string;
  /** fuzz --against OTHER: differential fuzzing of two providers (cli/fuzz-against.ts). */
  against?: string;
  againstArg?: string[];
  againstConfigJson?: string;
  againstConfigFile?: string;
}

export interface RunArgs extends LaunchArgs, BoundArgs, ManagedArgs, FuzzArgs, ReportArgs, EvidenceArgs {
  protocol?: string;
  configJson?: string;
  configFile?: string;
  invalidConfigFile?: string;
  out?: string;
  clause: string[];
  skip: string[];
  timeout?: number;
  budgetSlack?: number;
  budget?: number;
  runTimeout?: number;
  home?: string;
  scenario: string[];
  reporter: string[];
  color: boolean;
  /** --baseline FILE: the report.json this run is compared with (baseline.ts decides the exit code). */
  baseline?: string;
  /** Set by runCommand on the run of a bundled example: its name, recorded in the report (candidate.bundled). */
  bundled?: string;
}

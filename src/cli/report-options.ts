import type { Argv } from "yargs";
import { readInputFile } from "../core/inputs/read.js";
import { applyExpectations, parseExpectationFile, type ExpectationEntry } from "../core/report/expectations.js";
import type { CountedLevel, RunReport } from "../core/report/types.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";

/** Options that shape the verdict and the output, shared by run, fuzz and check. */
export interface ReportArgs {
  expectedFailures?: string;
  flaky?: string;
  level?: string;
  docsUrl?: string;
  quiet?: boolean;
  verbose?: boolean;
}

export function withReportOptions<T>(y: Argv<T>): Argv<T> {
  return y
    .option("expected-failures", { type: "string", describe: "file of clause patterns (# comments, optional @mode) that are known to fail; a listed clause that passes, or a pattern that matches nothing, fails the run as stale" })
    .option("flaky", { type: "string", describe: "file of clause patterns that may fail either way" })
    .option("level", { type: "string", choices: ["must", "should", "all"], describe: "which levels count for the verdict (default must): their failures fail the run, their skips make it incomplete; failures of other levels show as warnings" })
    .option("docs-url", { type: "string", describe: "where you host docs/clauses.md; reports then link clauses there (default: each clause's public source)" })
    .option("quiet", { type: "boolean", describe: "no progress line" })
    .option("verbose", { type: "boolean", describe: "the console lists every clause (passes, skips, not applicable) and every reason a run is incomplete; by default it prints failures, warnings, what left the run incomplete and the summary" })
    .epilog(EXIT_CODES_HELP) as Argv<T>;
}

/** What emitReport takes from the report options: --docs-url and --verbose. */
export function outputArgs(args: Pick<ReportArgs, "docsUrl" | "verbose">): { docsUrl?: string; verbose?: boolean } {
  return { ...(args.docsUrl !== undefined ? { docsUrl: args.docsUrl } : {}), ...(args.verbose === true ? { verbose: true } : {}) };
}

function readEntries(path: string | undefined): ExpectationEntry[] {
  if (path === undefined) return [];
  return parseExpectationFile(readInputFile(path, "list"), path);
}

export interface Finisher {
  finish(report: RunReport): RunReport;
}

/** Reads the expectation files once (before the run, so a bad file fails fast) and applies them to each report. */
export function reportFinisher(args: ReportArgs): Finisher {
  const expected = readEntries(args.expectedFailures);
  const flaky = readEntries(args.flaky);
  const level = (args.level ?? "must") as CountedLevel;
  // A shard's report holds part of the clauses: an entry goes stale only on the merged report.
  return { finish: (report) => applyExpectations(report, { expected, flaky, level, partial: report.shard !== undefined }) };
}

/**
 * `run --baseline FILE`: once the run wrote its reports, it is compared with FILE (a report of
 * an earlier run, pre-flighted before the first launch: preflight-reports.ts). The diff is
 * printed after the run's summary (when the console reporter is on) and written beside the
 * report as diff.md and diff.json (and, with the github reporter, appended to
 * $GITHUB_STEP_SUMMARY after the run's own summary), and it decides the exit code:
 *   1  a clause regressed against the baseline at the counted level (--level), or nothing was
 *      judged, or an --expected-failures entry went stale (as without a baseline);
 *   4  no regression, but a clause of a counted level could not be judged (incomplete);
 *   0  otherwise, failures included that the baseline already had (or that only a newer kit
 *      judges): known failures do not fail a pull request, new ones do.
 * Usage errors (2), kit failures (3) and interruptions (130, 143) keep their meaning.
 */
import { join } from "node:path";
import type { CountedLevel, RunReport } from "../core/report/types.js";
import type { VerdictExitCode } from "../core/report/judge.js";
import type { ReportDiff } from "../core/report/diff-types.js";
import { diffSaved, emitDiff } from "./diff-run.js";
import { readSavedReport } from "./preflight-reports.js";

/** The exit code of a run compared with a baseline (see the module comment). */
export function baselineExitCode(summary: RunReport["summary"], diff: ReportDiff): VerdictExitCode {
  if (diff.verdict === "regressed" || summary.verdict === "nothing-judged" || summary.stale.length > 0) return 1;
  return summary.incomplete.length > 0 ? 4 : 0;
}

export interface BaselineArgs {
  baseline: string;
  level?: string;
  reporter: readonly string[];
  color: boolean;
}

/** Compares the run's report (written to outDir) with the baseline, prints and writes the diff, and returns the exit code. */
export function compareWithBaseline(report: RunReport, args: BaselineArgs, outDir: string): VerdictExitCode {
  const older = { report: readSavedReport(args.baseline), file: args.baseline };
  const newer = { report, file: args.reporter.includes("json") ? join(outDir, "report.json") : `this run (${outDir}, no report.json: --reporter json writes it)` };
  const diff = diffSaved(older, newer, (args.level ?? "must") as CountedLevel);
  const formats = args.reporter.includes("console") ? ["console", "markdown", "json"] : ["markdown", "json"];
  const print = (text: string): void => void process.stdout.write(`\nCompared with the baseline ${args.baseline}:\n${text}`);
  // With the github reporter, the diff follows the run's summary in the job's step summary too.
  emitDiff(diff, { formats, outDir, color: args.color, print, stepSummary: args.reporter.includes("github") });
  return baselineExitCode(report.summary, diff);
}

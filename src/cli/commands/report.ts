import type { Argv } from "yargs";
import { REPORTER_NAMES } from "../../reporters/registry.js";
import { colorWanted, list } from "../args.js";
import { outputArgs, reportFinisher, withReportOptions, type ReportArgs } from "../report-options.js";

/** `awp-conformance report report.json --format html`: re-renders any saved run in any format. */
export function reportCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "report <file>",
    "re-render a saved report.json (console, json, junit, tap, markdown, html, badge)",
    (c) =>
      withReportOptions(c)
        .positional("file", { type: "string", demandOption: true, describe: "a report.json written by run, fuzz, policy-test or merge" })
        .option("format", { alias: "reporter", type: "string", array: true, default: ["console"], describe: `one or more reporters: ${REPORTER_NAMES.join(", ")} (--reporter is the same option, as in run)` })
        .option("out", { type: "string", describe: "folder for file reporters (default: the report's folder)" }),
    async (a) => {
      const [{ parseSavedReport, readInputFile }, { exitCodeFor }, { checkReporters, emitReport }, { differentialExitCode }] = await Promise.all([import("../../core/inputs/index.js"), import("../../core/report/judge.js"), import("../output.js"), import("../../core/report/differential.js")]);
      // A saved report may come from anyone: bounded, strict, schema-checked, and its summary must match its clauses.
      const saved = parseSavedReport(readInputFile(a.file, "report"), a.file);
      const formats = list(a.format);
      checkReporters(formats);
      const args = a as ReportArgs;
      // Expectation files and --level re-judge the saved results; without them the verdict stays as saved.
      const report = args.expectedFailures || args.flaky || args.level ? reportFinisher(args).finish(saved) : saved;
      const outDir = a.out ?? a.file.replace(/[^/\\]*$/, "") ?? ".";
      await emitReport(report, { reporters: formats, outDir: outDir === "" ? "." : outDir, color: colorWanted(), ...outputArgs(args) });
      setCode(differentialExitCode(exitCodeFor(report.summary), report));
    },
  );
}

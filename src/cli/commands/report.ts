import { readFileSync } from "node:fs";
import type { Argv } from "yargs";
import { KitError } from "../../core/errors.js";
import { exitCodeFor } from "../../core/report/judge.js";
import type { RunReport } from "../../core/report/types.js";
import { describeSchemaErrors, kitSchema } from "../../core/schema.js";
import { colorWanted, list } from "../args.js";
import { checkReporters, emitReport } from "../output.js";
import { reportFinisher, withReportOptions, type ReportArgs } from "../report-options.js";

/** `awp-conformance report report.json --format html`: re-renders any saved run in any format. */
export function reportCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "report <file>",
    "re-render a saved report.json (console, json, junit, tap, markdown, html, badge)",
    (c) =>
      withReportOptions(c)
        .positional("file", { type: "string", demandOption: true })
        .option("format", { type: "string", array: true, default: ["console"], describe: "one or more reporters" })
        .option("out", { type: "string", describe: "folder for file reporters (default: the report's folder)" }),
    (a) => {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(a.file, "utf8"));
      } catch (error) {
        throw new KitError("usage", `cannot read ${a.file}: ${(error as Error).message}`);
      }
      const validate = kitSchema("report.schema.json");
      if (!validate(value)) throw new KitError("usage", `${a.file} is not an awp-conformance report: ${describeSchemaErrors(validate.errors)}`);
      const formats = list(a.format);
      checkReporters(formats);
      const args = a as ReportArgs;
      // Expectation files and --level re-judge the saved results; without them the verdict stays as saved.
      const report = args.expectedFailures || args.flaky || args.level ? reportFinisher(args).finish(value as RunReport) : (value as RunReport);
      const outDir = a.out ?? a.file.replace(/[^/\\]*$/, "") ?? ".";
      emitReport(report, { reporters: formats, outDir: outDir === "" ? "." : outDir, color: colorWanted(), ...(args.docsUrl !== undefined ? { docsUrl: args.docsUrl } : {}) });
      setCode(exitCodeFor(report.summary));
    },
  );
}

import type { Argv } from "yargs";
import { withReportOptions, type ReportArgs } from "../report-options.js";

/** `awp-conformance merge DIR...`: the shard reports of one run combined into one report, in every format. */
export function mergeCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "merge [dirs..]",
    "combine the reports of every shard of one run (--shard K/N) into one report, in every format; exits as `run` would have",
    (c) =>
      withReportOptions(c)
        .positional("dirs", { type: "string", array: true, describe: "each shard's report folder (holding report.json), or its report.json" })
        .option("out", { type: "string", describe: "folder for the merged report and the replay files it names (default reports/)" })
        .option("reporter", { type: "string", array: true, default: ["console", "json"], describe: "console,json,junit,tap,markdown,html,badge,github (as for run)" }),
    async (a) => {
      // The readers, the merge and the reporters load only for this command.
      const { runMerge } = await import("../merge-run.js");
      setCode(await runMerge(a as ReportArgs & { reporter?: unknown; dirs?: string[]; out?: string; "--"?: unknown[] }));
    },
  );
}

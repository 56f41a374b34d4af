import { statSync } from "node:fs";
import { join } from "node:path";
import type { Argv } from "yargs";
import { KitError } from "../../core/errors.js";
import { parseSavedReport, readInputFile } from "../../core/inputs/index.js";
import { exitCodeFor } from "../../core/report/judge.js";
import { merge, type ShardReport } from "../../core/report/merge.js";
import { colorWanted, list } from "../args.js";
import { collectFiles } from "../merge-files.js";
import { checkReporters, emitReport } from "../output.js";
import { reportFinisher, withReportOptions, type ReportArgs } from "../report-options.js";

/** A shard's report: DIR/report.json (or the report file itself), read like `report` reads one. */
function readShard(path: string): ShardReport & { dir: string } {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // readInputFile names the problem.
  }
  const file = isDir ? join(path, "report.json") : path;
  const dir = isDir ? path : path.replace(/[^/\\]*$/, "") || ".";
  return { report: parseSavedReport(readInputFile(file, "report"), file), source: file, dir };
}

/** `awp-conformance merge DIR...`: the shard reports of one run combined into one report, in every format. */
export function mergeCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "merge [dirs..]",
    "combine the reports of every shard of one run (--shard K/N) into one report, in every format; exits as `run` would have",
    (c) =>
      withReportOptions(c)
        .positional("dirs", { type: "string", array: true, describe: "each shard's report folder (holding report.json), or its report.json" })
        .option("out", { type: "string", describe: "folder for the merged report and the replay files it names (default reports/)" })
        .option("reporter", { type: "string", array: true, default: ["console", "json"], describe: "console,json,junit,tap,markdown,html,badge (as for run)" }),
    (a) => {
      const reporters = list(a.reporter);
      checkReporters(reporters);
      const args = a as ReportArgs;
      const finisher = reportFinisher(args);
      const paths = [...((a.dirs as string[] | undefined) ?? []), ...(((a["--"] as unknown[] | undefined) ?? []).map(String))];
      if (paths.length === 0) throw new KitError("usage", "give the report folder of every shard: awp-conformance merge DIR...");
      const shards = paths.map(readShard);
      const outDir = a.out ?? "reports";
      const merged = collectFiles(merge(shards), shards.map((s) => ({ dir: s.dir, report: s.report })), outDir);
      // The verdict is the merged run's: --expected-failures, --flaky and --level apply here (the shards' marks are not carried over).
      const report = finisher.finish(merged);
      emitReport(report, { reporters, outDir, color: colorWanted(), ...(args.docsUrl !== undefined ? { docsUrl: args.docsUrl } : {}) });
      setCode(exitCodeFor(report.summary));
    },
  );
}

import { statSync } from "node:fs";
import { join } from "node:path";
import { KitError } from "../core/errors.js";
import { parseSavedReport, readInputFile } from "../core/inputs/index.js";
import { exitCodeFor } from "../core/report/judge.js";
import { merge, type ShardReport } from "../core/report/merge.js";
import { colorWanted, list } from "./args.js";
import { collectFiles } from "./merge-files.js";
import { checkReporters, emitReport } from "./output.js";
import { outputArgs, reportFinisher, type ReportArgs } from "./report-options.js";

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

/** What `merge` does with its arguments; returns the exit code. */
export async function runMerge(a: ReportArgs & { reporter?: unknown; dirs?: string[]; out?: string; "--"?: unknown[] }): Promise<number> {
  const reporters = list(a.reporter);
  checkReporters(reporters);
  const finisher = reportFinisher(a);
  const paths = [...(a.dirs ?? []), ...((a["--"] ?? []).map(String))];
  if (paths.length === 0) throw new KitError("usage", "give the report folder of every shard: awp-conformance merge DIR...");
  const shards = paths.map(readShard);
  const outDir = a.out ?? "reports";
  const merged = collectFiles(merge(shards), shards.map((s) => ({ dir: s.dir, report: s.report })), outDir);
  // The verdict is the merged run's: --expected-failures, --flaky and --level apply here (the shards' marks are not carried over).
  const report = finisher.finish(merged);
  await emitReport(report, { reporters, outDir, color: colorWanted(), ...outputArgs(a) });
  return exitCodeFor(report.summary);
}

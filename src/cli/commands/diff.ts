import type { Argv } from "yargs";
import type { CountedLevel } from "../../core/report/types.js";
import { colorWanted, list } from "../args.js";

/** The exit codes of diff, as --help shows them. */
export const DIFF_EXIT_CODES = [
  "Exit codes:",
  "  0  no regression at the counted level (changes of other levels, fixes and other changes are listed)",
  "  1  a clause regressed at the counted level: NEW fails a clause OLD did not fail, or skips one OLD passed",
  "  2  unusable input: a missing file, a file that is not a report, reports of different protocols, modes or shards",
  "  3  the kit itself failed",
].join("\n");

/** `awp-conformance diff OLD NEW`: what changed between two runs (src/core/report/diff-*.ts), and whether anything regressed. */
export function diffCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "diff <old> <new>",
    "compare two report.json files: regressed, fixed and otherwise changed clauses, new fuzz replays",
    (c) =>
      c
        .positional("old", { type: "string", demandOption: true, describe: "the earlier report.json (the baseline)" })
        .positional("new", { type: "string", demandOption: true, describe: "the later report.json" })
        .option("level", { type: "string", choices: ["must", "should", "all"], describe: "which levels' regressions fail the diff (default: the level NEW was judged at, must unless its run gave --level): a SHOULD regression is listed but exits 0 unless --level should" })
        .option("format", { type: "string", array: true, default: ["console"], describe: "one or more of console, markdown (diff.md, for a pull-request comment), json (diff.json, schemas/diff.schema.json)" })
        .option("out", { type: "string", describe: "folder for diff.md and diff.json (default: NEW's folder)" })
        .epilog(DIFF_EXIT_CODES),
    async (a) => {
      const [{ checkDiffFormats, diffSaved, emitDiff }, { readSavedReport }] = await Promise.all([import("../diff-run.js"), import("../preflight-reports.js")]);
      const formats = list(a.format);
      checkDiffFormats(formats);
      // Pre-flight read and compared both already: these are the reports it read (readSavedReport keeps them).
      const older = { report: readSavedReport(a.old), file: a.old };
      const newer = { report: readSavedReport(a.new), file: a.new };
      // Without --level, NEW's own verdict level, as `report` keeps the saved verdict.
      const diff = diffSaved(older, newer, (a.level as CountedLevel | undefined) ?? newer.report.summary.level);
      const folder = a.new.replace(/[^/\\]*$/, "");
      emitDiff(diff, { formats, outDir: a.out ?? (folder === "" ? "." : folder), color: colorWanted() });
      setCode(diff.verdict === "regressed" ? 1 : 0);
    },
  );
}

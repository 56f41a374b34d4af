/**
 * What `diff` and `run --baseline` share around the pure comparison (src/core/report/diff-*.ts): the replay
 * files of fuzz findings read for their content identity, and the diff written in the formats
 * asked for (console printed; diff.md and diff.json in the folder).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { KitError } from "../core/errors.js";
import type { CountedLevel, RunReport } from "../core/report/types.js";
import { diffReports } from "../core/report/diff-compare.js";
import { seedIdentity, type ReplayIdentity } from "../core/report/diff-replays.js";
import type { ReportDiff } from "../core/report/diff-types.js";
import { corpusName } from "../fuzz/corpus.js";
import { readReplay } from "../fuzz/replay.js";
import { appendStepSummary } from "./output.js";
import { renderDiffConsole } from "../reporters/diff-console.js";
import { renderDiffJson, renderDiffMarkdown } from "../reporters/diff-markdown.js";

/** The diff's formats and the file each writes (console prints). */
export const DIFF_FORMATS: Readonly<Record<string, string | undefined>> = { console: undefined, markdown: "diff.md", json: "diff.json" };

/** Replay files read for their identity, at most: beyond, cases are compared by seed and path. */
const MAX_REPLAYS = 500;

export interface SavedReport {
  report: RunReport;
  /** The report.json, as the user named it (its replays/ folder is beside it). */
  file: string;
}

export function checkDiffFormats(formats: readonly string[]): void {
  for (const name of formats) {
    if (!Object.hasOwn(DIFF_FORMATS, name)) throw new KitError("usage", `--format ${name}: the diff's formats are ${Object.keys(DIFF_FORMATS).join(", ")}`);
  }
}

/** The content identity of a replay file: where the report says it is, else in the replays/ folder beside the report. */
function identityOf(file: string, report: string, cwd: string): string | undefined {
  for (const path of [resolve(cwd, file), join(resolve(cwd, dirname(report)), "replays", basename(file))]) {
    try {
      return corpusName(readReplay(path)).replace(/\.json$/, "");
    } catch {
      // Not there, or not a replay file: the next place, then seed and path.
    }
  }
  return undefined;
}

/**
 * How the fuzz cases of the two reports are told apart: by the content of their replay files
 * when every one of them can be read, else (all of them, so the sides agree) by seed and path,
 * with a note saying which file was missing.
 */
export function replayIdentities(older: SavedReport, newer: SavedReport, cwd: string = process.cwd()): { identity: ReplayIdentity; notes: string[] } {
  const known = new Map<string, string>();
  const sides = { old: older, new: newer };
  const files = [older, newer].flatMap((s) => s.report.clauses.flatMap((c) => c.findings.flatMap((f) => (f.fuzzCase === undefined ? [] : [{ side: s, file: f.fuzzCase.file }]))));
  if (files.length === 0) return { identity: seedIdentity, notes: [] };
  const bySeed = (why: string): { identity: ReplayIdentity; notes: string[] } => ({ identity: seedIdentity, notes: [`Fuzz cases are compared by seed and path, not by content: ${why}.`] });
  if (files.length > MAX_REPLAYS) return bySeed(`the reports hold ${files.length} fuzz findings, more than the ${MAX_REPLAYS} replay files the diff reads`);
  for (const { side, file } of files) {
    if (file === undefined) return bySeed(`a fuzz finding of ${side.file} has no replay file`);
    const key = `${side.file}\n${file}`;
    if (known.has(key)) continue;
    const identity = identityOf(file, side.file, cwd);
    if (identity === undefined) return bySeed(`the replay file ${file} of ${side.file} could not be read`);
    known.set(key, identity);
  }
  return { identity: (finding, side) => known.get(`${sides[side].file}\n${finding.fuzzCase.file ?? ""}`) ?? seedIdentity(finding, side), notes: [] };
}

/** The diff of two saved (or just written) reports, their fuzz cases compared by content where the files allow. */
export function diffSaved(older: SavedReport, newer: SavedReport, level: CountedLevel): ReportDiff {
  const { identity, notes } = replayIdentities(older, newer);
  const diff = diffReports(older.report, newer.report, { level, files: { old: older.file, new: newer.file }, replayIdentity: identity });
  return notes.length === 0 ? diff : { ...diff, notes: [...diff.notes, ...notes] };
}

export interface DiffOutput {
  formats: readonly string[];
  outDir: string;
  color: boolean;
  print?: (text: string) => void;
  /** Also append the Markdown to $GITHUB_STEP_SUMMARY (run --baseline with the github reporter). */
  stepSummary?: boolean;
  /** Where GITHUB_STEP_SUMMARY is read (process.env by default). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Prints and writes the diff in each format; returns the files written. */
export function emitDiff(diff: ReportDiff, options: DiffOutput): string[] {
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  const written: string[] = [];
  for (const format of options.formats) {
    const file = DIFF_FORMATS[format];
    if (file === undefined) {
      print(renderDiffConsole(diff, { color: options.color }));
      continue;
    }
    const path = join(options.outDir, file);
    try {
      mkdirSync(options.outDir, { recursive: true });
      writeFileSync(path, format === "json" ? renderDiffJson(diff) : renderDiffMarkdown(diff));
    } catch (error) {
      throw new KitError("io_failed", `cannot write ${path}: ${(error as Error).message}`);
    }
    written.push(path);
  }
  if (options.stepSummary === true) appendStepSummary(renderDiffMarkdown(diff), options.env ?? process.env);
  return written;
}

/**
 * `awp-conformance matrix`: saved reports read (the loader `report` uses), candidates planned
 * and checked (matrix-plan.ts), run one after another or --jobs at a time, each into
 * <out>/<name>/ by `run` itself; then matrix.json, matrix.html and matrix.md in <out>, with each
 * implementation's report.json, report.html and badge in its folder. A candidate that could not
 * be run stays a column that says why.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { KitError } from "../core/errors.js";
import { parseSavedReport, readInputFile } from "../core/inputs/index.js";
import { handleInterrupts, interrupted } from "../core/interrupt.js";
import { buildMatrix, type Matrix, type MatrixInput } from "../core/report/matrix.js";
import type { RunReport } from "../core/report/types.js";
import { kitVersion } from "../core/paths.js";
import { runEach } from "../config/run.js";
import { renderMatrixHtml } from "../reporters/matrix-html.js";
import { renderMatrixMarkdown } from "../reporters/matrix-markdown.js";
import { CANDIDATE_REPORTERS, planCandidates, type PlannedCandidate } from "./matrix-plan.js";
import { emitReport } from "./output.js";
import { runCommand } from "./run.js";
import type { RunArgs } from "./run-args.js";

/** The matrix's folder when --out is not given. */
export const DEFAULT_MATRIX_OUT = "reports/matrix";

export interface MatrixArgs {
  reports: string[];
  candidates: string[];
  candidateArgs: string[];
  candidateOptions: string[];
  shared: RunArgs;
  out?: string;
  jobs?: number;
  config: string | false | undefined;
  docsUrl?: string;
  cwd?: string;
  /** Where the summary goes (stdout by default) and the progress lines (stderr). */
  print?: (text: string) => void;
  say?: (line: string) => void;
}

interface SavedColumn {
  name: string;
  source: string;
  report: RunReport;
}

/** A saved report: FILE, or DIR/report.json; named after its folder (or the file, when not report.json). */
function readSaved(path: string, cwd: string): SavedColumn {
  const full = resolve(cwd, path);
  let isDir = false;
  try {
    isDir = statSync(full).isDirectory();
  } catch {
    // readInputFile names the problem.
  }
  const file = isDir ? join(full, "report.json") : full;
  const report = parseSavedReport(readInputFile(file, "report"), isDir ? join(path, "report.json") : path);
  const name = basename(file) === "report.json" ? basename(dirname(file)) : basename(file).replace(/\.json$/i, "");
  return { name: name === "" ? "report" : name, source: path, report };
}

/** A folder name for a column: the name's letters, digits, '.', '_' and '-', unique among the columns. */
export function folderName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 64) || "report";
  let dir = base;
  for (let n = 2; taken.has(dir.toLowerCase()); n++) dir = `${base}-${n}`;
  taken.add(dir.toLowerCase());
  return dir;
}

function write(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new KitError("io_failed", `cannot write ${path}: ${(error as Error).message}`);
  }
}

/** Why a candidate has no report, from what its run threw. */
function failureOf(error: unknown): { failure: string; code: number } {
  if (error instanceof KitError) return { failure: `${error.message} [${error.code}]`, code: error.exitCode };
  return { failure: `the kit failed: ${error instanceof Error ? error.message : String(error)}`, code: 3 };
}

/** Runs the planned candidates; each gives its report, or the reason it has none. */
async function runCandidates(planned: readonly PlannedCandidate[], jobs: number, out: string, say: (line: string) => void): Promise<{ inputs: MatrixInput[]; code: number }> {
  const results: (MatrixInput | undefined)[] = planned.map(() => undefined);
  let code = 0;
  handleInterrupts();
  await runEach(planned, jobs, async (p, index) => {
    say(`awp-conformance: matrix: candidate ${p.name} (${p.protocol}) into ${join(out, p.dir)}`);
    const base = { name: p.name, dir: p.dir, protocol: p.protocol, origin: "run" as const };
    try {
      await runCommand(p.args);
      const file = join(out, p.dir, "report.json");
      results[index] = { ...base, report: parseSavedReport(readInputFile(file, "report"), file) };
    } catch (error) {
      const failed = failureOf(error);
      code = Math.max(code, failed.code);
      results[index] = { ...base, failure: failed.failure };
    }
  });
  const inputs = planned.map((p, i) => results[i] ?? { name: p.name, dir: p.dir, protocol: p.protocol, origin: "run" as const, failure: interrupted() !== undefined ? "not run: the matrix was interrupted" : "not run" });
  return { inputs, code };
}

/** One line per implementation, and where the page is. */
function summary(matrix: Matrix, out: string): string {
  const lines = matrix.sections.flatMap((s) => s.columns.map((c) => `  ${c.name} (${s.protocol}): ${c.failure !== undefined ? `no report: ${c.failure}` : `${c.verdict ?? "unknown"} (${join(out, c.dir, "report.html")})`}`));
  const disagree = matrix.sections.reduce((n, s) => n + s.rows.filter((r) => r.disagree).length, 0);
  return `\nConformance matrix:\n${lines.join("\n")}\n  ${disagree} clause${disagree === 1 ? "" : "s"} where the implementations disagree\n  ${join(out, "matrix.html")} (also matrix.md, matrix.json)\n`;
}

/**
 * The matrix command; returns its exit code: 0 when every implementation has a report (their
 * verdicts are in the page, not in the exit code); else the exit code `run` has for the worst
 * candidate that could not run (2 usage or configuration, 3 the kit failed), the matrix written all the same.
 */
export async function runMatrix(a: MatrixArgs): Promise<number> {
  const cwd = a.cwd ?? process.cwd();
  const out = a.out ?? DEFAULT_MATRIX_OUT;
  // --quiet: no progress line, the matrix's own included.
  const say = a.shared.quiet === true ? (): void => undefined : (a.say ?? ((line: string) => process.stderr.write(`${line}\n`)));
  const jobs = a.jobs ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1) throw new KitError("usage", "--jobs must be a positive integer");
  // A file that is not a report ends the command before anything runs.
  const saved = a.reports.map((path) => readSaved(path, cwd));
  const planned = await planCandidates({ candidates: a.candidates, candidateArgs: a.candidateArgs, candidateOptions: a.candidateOptions, shared: a.shared, out, config: a.config, withReports: saved.length > 0, quiet: jobs > 1 || a.shared.quiet === true, cwd });
  if (planned.length + saved.length === 0) throw new KitError("usage", "nothing to compare: give --candidate NAME=PATH, report.json files, or a configuration file with candidates");
  const taken = new Set(planned.map((p) => p.dir.toLowerCase()));
  const fromReports: MatrixInput[] = saved.map((s) => ({ name: s.name, dir: folderName(s.name, taken), protocol: s.report.protocol, origin: "report", source: s.source, report: s.report }));
  const { inputs, code } = await runCandidates(planned, jobs, out, say);
  // Each saved report gets its page, JSON and badge in its folder: the matrix folder can be published as it is.
  for (const input of fromReports) {
    await emitReport(input.report as RunReport, { reporters: [...CANDIDATE_REPORTERS], outDir: join(out, input.dir), color: false, ...(a.docsUrl !== undefined ? { docsUrl: a.docsUrl } : {}) });
  }
  const matrix = buildMatrix([...inputs, ...fromReports], { name: "awp-conformance", version: kitVersion() });
  mkdirSync(out, { recursive: true });
  write(join(out, "matrix.json"), `${JSON.stringify(matrix, null, 2)}\n`);
  write(join(out, "matrix.html"), renderMatrixHtml(matrix));
  write(join(out, "matrix.md"), renderMatrixMarkdown(matrix));
  (a.print ?? ((text: string) => process.stdout.write(text)))(summary(matrix, out));
  return code;
}

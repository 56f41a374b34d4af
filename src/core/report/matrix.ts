/**
 * The matrix as a pure function of several reports (design.md: "the matrix and diff are pure
 * functions of several reports in src/core/report/, rendered by reporters"). Columns are
 * implementations, rows the clauses any of them reports, one section per protocol; a column
 * without a report (a candidate that failed to run) stays, and says why.
 */
import { loadCatalogue } from "../clauses/catalogue.js";
import { docUrl, sourceDoc, sourceRevision } from "../clauses/sources.js";
import { bucketOf, exitCodeFor } from "./judge.js";
import type { CellStatus, Matrix, MatrixCell, MatrixColumn, MatrixRollup, MatrixRow, MatrixSection, MatrixSource, RollupStatus, StatusCounts } from "./matrix-types.js";
import type { Buckets, Clause, ClauseResult, CountedLevel, Level, ReportProtocol, RunReport, SuiteProtocol } from "./types.js";

export type * from "./matrix-types.js";

/** What the matrix is built from: one implementation, with its report or the reason it has none. */
export interface MatrixInput {
  name: string;
  dir: string;
  protocol: ReportProtocol;
  origin: "run" | "report";
  source?: string;
  report?: RunReport;
  /** Why there is no report. */
  failure?: string;
}

export const CELL_STATUSES: readonly CellStatus[] = ["pass", "fail", "expected", "flaky", "skip", "na", "absent", "no-report"];
const LEVELS: readonly Level[] = ["MUST", "SHOULD", "MAY"];
const SUITES: readonly ReportProtocol[] = ["provider", "agent-cli", "host"];

const BUCKET_STATUS: Readonly<Record<keyof Buckets, CellStatus>> = {
  passed: "pass",
  failed: "fail",
  warnings: "fail",
  expectedFailures: "expected",
  flaky: "flaky",
  skipped: "skip",
  notApplicable: "na",
};

/** One clause result as a cell, judged at the --level of the report it comes from (the judge's own buckets). */
export function cellOf(result: ClauseResult, level: CountedLevel): MatrixCell {
  const bucket = bucketOf(result, level);
  return {
    status: BUCKET_STATUS[bucket],
    ...(result.status === "fail" ? { counted: bucket === "failed", findings: result.findings.length } : {}),
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
  };
}

/** The outcome two cells are compared on: a failure is a failure, expected or not. */
function outcome(cell: MatrixCell): string | undefined {
  if (cell.status === "absent" || cell.status === "no-report") return undefined;
  return cell.status === "expected" || cell.status === "flaky" ? "fail" : cell.status;
}

function catalogueOf(protocol: ReportProtocol): Clause[] {
  if (!SUITES.includes(protocol)) return [];
  try {
    return loadCatalogue(protocol as SuiteProtocol);
  } catch {
    return [];
  }
}

/** The roll-up's keys, in the order they are shown. */
export const ROLLUP_STATUSES: readonly RollupStatus[] = ["pass", "fail", "warning", "expected", "flaky", "skip", "na", "absent", "no-report"];

function emptyCounts(): StatusCounts {
  return Object.fromEntries(ROLLUP_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/** A cell as a roll-up counts it: a failure its implementation's --level does not count is a warning. */
export function rollupStatus(cell: MatrixCell): RollupStatus {
  return cell.status === "fail" && cell.counted === false ? "warning" : cell.status;
}

function rollup(name: string, rows: readonly MatrixRow[], columns: number): MatrixRollup {
  const counts = Array.from({ length: columns }, emptyCounts);
  for (const row of rows) row.cells.forEach((cell, i) => (counts[i] as StatusCounts)[rollupStatus(cell)] += 1);
  return { name, rows: rows.length, disagree: rows.filter((r) => r.disagree).length, columns: counts };
}

/** The column as the matrix shows it: what its report says of it. */
function columnOf(input: MatrixInput): MatrixColumn {
  const r = input.report;
  return {
    name: input.name,
    dir: input.dir,
    protocol: input.protocol,
    origin: input.origin,
    ...(input.source !== undefined ? { source: input.source } : {}),
    ...(r?.mode !== undefined ? { mode: r.mode } : {}),
    ...(r !== undefined ? { toolVersion: r.tool.version, argv: r.candidate.argv, verdict: r.summary.verdict, level: r.summary.level, exitCode: exitCodeFor(r.summary) } : {}),
    ...(r === undefined ? { failure: input.failure ?? "no report" } : {}),
  };
}

/** The area of a clause id (`provider/transport/utf8` is `provider/transport`). */
export function areaOfId(id: string): string {
  return id.split("/").slice(0, 2).join("/");
}

function section(protocol: ReportProtocol, inputs: readonly MatrixInput[]): MatrixSection {
  const catalogue = catalogueOf(protocol);
  const known = new Map(catalogue.map((c, i) => [c.id, i]));
  const results = inputs.map((input) => new Map((input.report?.clauses ?? []).map((c) => [c.id, c])));
  // Every clause any report holds: catalogue order first, then the others as first seen.
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const input of inputs) for (const c of input.report?.clauses ?? []) if (!seen.has(c.id)) (seen.add(c.id), ids.push(c.id));
  const firstSeen = new Map(ids.map((id, i) => [id, i]));
  const rank = (id: string): number => known.get(id) ?? known.size + (firstSeen.get(id) ?? 0);
  ids.sort((a, b) => rank(a) - rank(b));
  const rows: MatrixRow[] = ids.map((id) => {
    const first = results.map((m) => m.get(id)).find((r) => r !== undefined) as ClauseResult;
    const clause = catalogue[known.get(id) ?? -1];
    const cells = inputs.map((input, i): MatrixCell => {
      if (input.report === undefined) return { status: "no-report" };
      const result = results[i]?.get(id);
      return result === undefined ? { status: "absent" } : cellOf(result, input.report.summary.level);
    });
    const outcomes = new Set(cells.map(outcome).filter((o) => o !== undefined));
    return { id, area: areaOfId(id), level: clause?.level ?? first.level, title: clause?.title ?? first.title, disagree: outcomes.size > 1, cells };
  });
  const areas = [...new Set(rows.map((r) => r.area))].map((area) => rollup(area, rows.filter((r) => r.area === area), inputs.length));
  const levels = LEVELS.filter((l) => rows.some((r) => r.level === l)).map((level) => rollup(level, rows.filter((r) => r.level === level), inputs.length));
  return { protocol, columns: inputs.map(columnOf), rows, areas, levels };
}

/** The public documents the clauses of the matrix cite, each once, in the order first cited. */
function sourcesOf(sections: readonly MatrixSection[]): MatrixSource[] {
  const keys = new Set<string>();
  for (const s of sections) {
    const byId = new Map(catalogueOf(s.protocol).map((c) => [c.id, c]));
    for (const row of s.rows) {
      const key = byId.get(row.id)?.source.doc;
      if (key !== undefined) keys.add(key);
    }
  }
  return [...keys].flatMap((key) => {
    const doc = sourceDoc(key);
    return doc === undefined ? [] : [{ title: doc.title, url: docUrl(doc), revision: sourceRevision({ doc: key, section: "" }) ?? doc.commit }];
  });
}

/** The matrix of the implementations, a section per protocol in the order the protocols first appear. */
export function buildMatrix(inputs: readonly MatrixInput[], tool: { name: string; version: string }): Matrix {
  const protocols = [...new Set(inputs.map((i) => i.protocol))];
  const sections = protocols.map((p) => section(p, inputs.filter((i) => i.protocol === p)));
  return { matrixVersion: 1, tool, sections, sources: sourcesOf(sections) };
}

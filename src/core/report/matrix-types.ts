/**
 * The conformance matrix (`awp-conformance matrix`) as plain data: several implementations'
 * reports side by side, one section per protocol (reports of different protocols judge
 * different clauses, so they are never mixed in one table). Described by
 * schemas/matrix.schema.json; matrix.html and matrix.md are rendered from it.
 */
import type { Level, ReportProtocol, Verdict } from "./types.js";

/** A cell: the clause's status in one implementation's report (expected and flaky failures apart), or why there is none. */
export type CellStatus = "pass" | "fail" | "expected" | "flaky" | "skip" | "na" | "absent" | "no-report";

/** One implementation: a candidate the matrix ran, or a saved report it was given. */
export interface MatrixColumn {
  /** The name shown (a candidate's name, or the folder of a saved report.json). */
  name: string;
  /** Its folder under the matrix's --out (letters, digits, '.', '_', '-'): report.html, report.json and badge.svg live there. */
  dir: string;
  protocol: ReportProtocol;
  mode?: string;
  /** Where it came from: "run" (the matrix ran it) or "report" (a saved report.json). */
  origin: "run" | "report";
  /** The saved report.json given (origin "report"), as written on the command line. */
  source?: string;
  /** The kit version that wrote its report. */
  toolVersion?: string;
  /** The candidate's command line, as its report records it. */
  argv?: string[];
  verdict?: Verdict;
  /** Which levels its verdict counts (--level). */
  level?: string;
  /** The exit code its run would have had (0 conformant, 1 not, 4 incomplete...). */
  exitCode?: number;
  /** Set when the candidate has no report: why (it failed to run, or was not started). */
  failure?: string;
}

export interface MatrixCell {
  status: CellStatus;
  /** A failure that counts against that implementation's verdict at its --level (false: a warning). */
  counted?: boolean;
  /** Why it was skipped or not applicable. */
  reason?: string;
  findings?: number;
}

export interface MatrixRow {
  id: string;
  area: string;
  level: Level;
  title: string;
  /** At least two implementations with a result for the clause disagree on its status (pass, fail, skip, not applicable). */
  disagree: boolean;
  /** One per column of the section, in its order. */
  cells: MatrixCell[];
}

/** How many rows of each status one column has. */
/** What a roll-up counts: the cell statuses, with a failure its run does not count (warning) apart from fail. */
export type RollupStatus = CellStatus | "warning";

export type StatusCounts = Record<RollupStatus, number>;

/** A roll-up: an area's or a level's rows, how many disagree, and each column's counts. */
export interface MatrixRollup {
  name: string;
  rows: number;
  disagree: number;
  columns: StatusCounts[];
}

export interface MatrixSection {
  protocol: ReportProtocol;
  columns: MatrixColumn[];
  rows: MatrixRow[];
  areas: MatrixRollup[];
  levels: MatrixRollup[];
}

/** A document the clauses of the matrix cite (its public, versioned place). */
export interface MatrixSource {
  title: string;
  url: string;
  revision: string;
}

export interface Matrix {
  matrixVersion: 1;
  tool: { name: string; version: string };
  sections: MatrixSection[];
  sources: MatrixSource[];
}

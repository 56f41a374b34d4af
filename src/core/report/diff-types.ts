/**
 * The difference between two run reports (`awp-conformance diff OLD NEW`, `run --baseline`):
 * plain data, described by schemas/diff.schema.json and rendered by reporters/diff-*.ts.
 */
import type { ClauseStatus, CountedLevel, Level, ReportProtocol, RunReport } from "./types.js";

/**
 * What happened to one clause between OLD and NEW:
 * - regressed: passed, now fails (a failure of any level, expected or flaky included);
 * - fixed: failed, now passes;
 * - reason-changed: the same status (fail, skip or not-applicable), another failure message or reason;
 * - became-applicable / became-not-applicable: from or to not-applicable;
 * - became-skipped / unskipped: from or to skipped (between pass, fail and skip);
 * - added / removed: the clause is in one report only (a kit upgrade, or another --clause/--skip).
 */
export type ChangeKind = "regressed" | "fixed" | "reason-changed" | "became-applicable" | "became-not-applicable" | "became-skipped" | "unskipped" | "added" | "removed";

/** One side of a clause's change: its status, and why it failed, was skipped or was not applicable. */
export interface ClauseSide {
  status: ClauseStatus;
  /** Skip and not-applicable: the reason. */
  reason?: string;
  /** Fail: the distinct finding messages, in order (at most DIFF_LIMITS.messages). */
  messages?: string[];
  /** Fail: --expected-failures or --flaky listed it in that run. */
  expectation?: "expected-failure" | "flaky";
}

export interface ClauseChange {
  id: string;
  level: Level;
  title: string;
  kind: ChangeKind;
  /** Absent for an added clause. */
  old?: ClauseSide;
  /** Absent for a removed clause. */
  new?: ClauseSide;
  /**
   * NEW lost what OLD had: it fails a clause OLD did not fail (passed, skipped or not
   * applicable), or it skips a clause OLD passed (no longer judged).
   */
  regression: boolean;
  /** A regression the verdict counts: of a level --level counts, and (a failure) neither expected nor flaky in NEW. */
  counted: boolean;
  /** Added or removed: the other report's --clause/--skip left the clause out ("selection"), or its kit did not have it ("kit"). */
  why?: "selection" | "kit";
}

/** A fuzz replay of NEW whose case OLD has no replay of for the same clause. */
export interface NewReplay {
  clause: string;
  /** What the case is, whatever its file is called: the corpus name of its protocol and case, or seed and path when the file could not be read. */
  identity: string;
  /** The replay file, as NEW's report names it. */
  file?: string;
  seed: number;
  path: string;
  /** Replayed from NEW's --corpus rather than generated. */
  corpus?: true;
}

/** What the diff says of each report. */
export interface DiffSide {
  /** The report.json compared (as the user named it). */
  file?: string;
  kitVersion: string;
  argv: string[];
  startedAt: string;
  verdict: RunReport["summary"]["verdict"];
  selection: RunReport["selection"];
  /** Fuzzing: the seed of the campaign. */
  fuzzSeed?: number;
  /** The run stopped early (RunReport.halted). */
  halted?: string;
}

/** How many clauses changed each way (each change in one count: a regression as regressed, whatever its kind), and the regressions the verdict counts. */
export interface DiffCounts {
  regressed: number;
  /** Of the regressions (any kind), those --level counts: any makes the diff exit 1. */
  counted: number;
  fixed: number;
  reasonChanged: number;
  becameApplicable: number;
  becameNotApplicable: number;
  becameSkipped: number;
  unskipped: number;
  added: number;
  removed: number;
  unchanged: number;
  newReplays: number;
}

export interface ReportDiff {
  diffVersion: 1;
  tool: { name: "awp-conformance"; version: string };
  protocol: ReportProtocol;
  mode?: string;
  /** The levels whose regressions count (--level, default must). */
  level: CountedLevel;
  old: DiffSide;
  new: DiffSide;
  counts: DiffCounts;
  /** Regressions first (counted ones first), then fixes, then every other change; within each, NEW's clause order. */
  changes: ClauseChange[];
  newReplays: NewReplay[];
  /** "regressed" exactly when a regression is counted. */
  verdict: "regressed" | "no-regression";
  notes: string[];
}

/** Bounds on what a diff keeps of each clause. */
export const DIFF_LIMITS = { messages: 5, messageChars: 500 } as const;

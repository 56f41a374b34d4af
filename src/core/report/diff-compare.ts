/**
 * Two run reports in, their difference out (pure: no file is read here; the replay files'
 * identities come in as a function). What counts as a regression, and why:
 * - NEW fails a clause OLD did not fail (it passed, was skipped or was not applicable): the
 *   candidate now breaks something it did not before, or that was not judged before;
 * - NEW skips a clause OLD passed: a proof was lost (the run is incomplete there).
 * A regression counts (fails the diff, exit 1) when its clause is of a level --level counts
 * and, a failure, NEW does not list it as expected or flaky: a SHOULD regression is reported
 * at --level must but fails nothing, as a SHOULD failure only warns in a run. A clause that
 * became not applicable is no regression (the candidate no longer offers what it applies to),
 * nor is a clause the other report does not have (a kit upgrade or another selection): a new
 * clause that fails shows as added, failing, and fails NEW's own verdict.
 */
import { isCounted } from "./judge.js";
import type { ClauseResult, CountedLevel, Finding, RunReport } from "./types.js";
import { kitVersion } from "../paths.js";
import { makeSelector } from "../clauses/patterns.js";
import { checkComparable } from "./diff-comparable.js";
import { newReplays, type ReplayIdentity } from "./diff-replays.js";
import { DIFF_LIMITS, type ChangeKind, type ClauseChange, type ClauseSide, type DiffCounts, type DiffSide, type ReportDiff } from "./diff-types.js";

export interface DiffOptions {
  /** The levels whose regressions count (default must). */
  level?: CountedLevel;
  /** The report files, as the user named them (for the output and the messages). */
  files?: { old?: string; new?: string };
  /** The identity of a fuzz finding's case (default: its clause's replay by seed and path). */
  replayIdentity?: ReplayIdentity;
}

/** The distinct finding messages of a failure, in order, bounded. */
function messagesOf(findings: readonly Finding[]): string[] {
  const seen = new Set<string>();
  for (const f of findings) {
    seen.add(f.message.length > DIFF_LIMITS.messageChars ? `${f.message.slice(0, DIFF_LIMITS.messageChars - 1)}…` : f.message);
    if (seen.size >= DIFF_LIMITS.messages) break;
  }
  return [...seen];
}

function sideOf(result: ClauseResult): ClauseSide {
  if (result.status === "fail") return { status: "fail", messages: messagesOf(result.findings), ...(result.expectation !== undefined ? { expectation: result.expectation } : {}) };
  if (result.status === "pass") return { status: "pass" };
  return { status: result.status, reason: result.reason ?? "" };
}

/** Whether two sides of the same status say the same (failure messages compared as sets: findings of parallel work come in any order). */
function sameReason(a: ClauseSide, b: ClauseSide): boolean {
  if (a.status === "fail") return [...(a.messages ?? [])].sort().join("\n") === [...(b.messages ?? [])].sort().join("\n");
  return a.reason === b.reason;
}

/** The kind of change between two results of one clause, or undefined when nothing changed. */
export function changeKind(from: ClauseSide, to: ClauseSide): ChangeKind | undefined {
  if (from.status === to.status) return sameReason(from, to) ? undefined : "reason-changed";
  if (to.status === "not-applicable") return "became-not-applicable";
  if (from.status === "not-applicable") return "became-applicable";
  if (to.status === "skip") return "became-skipped";
  if (from.status === "skip") return "unskipped";
  return to.status === "fail" ? "regressed" : "fixed";
}

/** See the module comment: what NEW lost, and whether --level counts it. */
function regressionOf(from: ClauseSide, to: ClauseSide, result: ClauseResult, level: CountedLevel): { regression: boolean; counted: boolean } {
  const regression = (to.status === "fail" && from.status !== "fail") || (from.status === "pass" && to.status === "skip");
  const counted = regression && isCounted(result.level, level) && (to.status !== "fail" || result.expectation === undefined);
  return { regression, counted };
}

function diffSide(report: RunReport, file: string | undefined): DiffSide {
  return {
    ...(file !== undefined ? { file } : {}),
    kitVersion: report.tool.version,
    argv: report.candidate.argv,
    startedAt: report.startedAt,
    verdict: report.summary.verdict,
    selection: report.selection,
    ...(report.fuzz !== undefined ? { fuzzSeed: report.fuzz.seed } : {}),
    ...(report.halted !== undefined ? { halted: report.halted } : {}),
  };
}

/** Regressions (counted first), fixes, then the other kinds in this order; NEW's clause order within each. */
const ORDER: readonly ChangeKind[] = ["regressed", "fixed", "reason-changed", "became-applicable", "became-not-applicable", "became-skipped", "unskipped", "added", "removed"];

function rank(change: ClauseChange): number {
  if (change.counted) return 0;
  if (change.regression) return 1;
  return 2 + ORDER.indexOf(change.kind);
}

function countsOf(changes: readonly ClauseChange[], unchanged: number, replays: number): DiffCounts {
  // Each change in one count: a regression (whatever its kind) as regressed only.
  const of = (kind: ChangeKind): number => changes.filter((c) => c.kind === kind && !c.regression).length;
  return {
    regressed: changes.filter((c) => c.regression).length,
    counted: changes.filter((c) => c.counted).length,
    fixed: of("fixed"),
    reasonChanged: of("reason-changed"),
    becameApplicable: of("became-applicable"),
    becameNotApplicable: of("became-not-applicable"),
    becameSkipped: of("became-skipped"),
    unskipped: of("unskipped"),
    added: of("added"),
    removed: of("removed"),
    unchanged,
    newReplays: replays,
  };
}

function notesOf(older: RunReport, newer: RunReport, changes: readonly ClauseChange[]): string[] {
  const notes: string[] = [];
  if (older.tool.version !== newer.tool.version) notes.push(`The reports come from different kits (OLD ${older.tool.version}, NEW ${newer.tool.version}): clauses the kit added or removed show as added or removed, not as changes of the candidate.`);
  const selection = (r: RunReport): string => JSON.stringify([[...r.selection.clause].sort(), [...r.selection.skip].sort()]);
  if (selection(older) !== selection(newer)) notes.push("The runs selected different clauses (--clause/--skip): a clause one of them left out shows as added or removed.");
  if (older.halted !== undefined) notes.push(`OLD stopped early: ${older.halted}`);
  if (newer.halted !== undefined) notes.push(`NEW stopped early: ${newer.halted} Clauses it did not reach show as skipped.`);
  if (changes.some((c) => c.kind === "added" && c.new?.status === "fail")) notes.push("A clause only NEW has fails: it is no regression of the candidate, but it fails NEW's own verdict.");
  return notes;
}

/** The difference between OLD and NEW (checkComparable first: the same protocol, mode and shard). */
export function diffReports(older: RunReport, newer: RunReport, options: DiffOptions = {}): ReportDiff {
  checkComparable(older, newer, { old: options.files?.old ?? "OLD", new: options.files?.new ?? "NEW" });
  const level = options.level ?? "must";
  const before = new Map(older.clauses.map((c) => [c.id, c]));
  const after = new Set(newer.clauses.map((c) => c.id));
  const inOld = makeSelector(older.selection);
  const inNew = makeSelector(newer.selection);
  const changes: ClauseChange[] = [];
  let unchanged = 0;
  for (const result of newer.clauses) {
    const was = before.get(result.id);
    const to = sideOf(result);
    const base = { id: result.id, level: result.level, title: result.title };
    if (was === undefined) {
      changes.push({ ...base, kind: "added", new: to, regression: false, counted: false, why: inOld(result.id) ? "kit" : "selection" });
      continue;
    }
    const from = sideOf(was);
    const kind = changeKind(from, to);
    if (kind === undefined) {
      unchanged++;
      continue;
    }
    changes.push({ ...base, kind, old: from, new: to, ...regressionOf(from, to, result, level) });
  }
  for (const was of older.clauses) {
    if (after.has(was.id)) continue;
    changes.push({ id: was.id, level: was.level, title: was.title, kind: "removed", old: sideOf(was), regression: false, counted: false, why: inNew(was.id) ? "kit" : "selection" });
  }
  const ordered = changes.map((change, index) => ({ change, index })).sort((a, b) => rank(a.change) - rank(b.change) || a.index - b.index).map((e) => e.change);
  const replays = newReplays(older, newer, options.replayIdentity);
  const counts = countsOf(ordered, unchanged, replays.length);
  return {
    diffVersion: 1,
    tool: { name: "awp-conformance", version: kitVersion() },
    protocol: newer.protocol,
    ...(newer.mode !== undefined ? { mode: newer.mode } : {}),
    level,
    old: diffSide(older, options.files?.old),
    new: diffSide(newer, options.files?.new),
    counts,
    changes: ordered,
    newReplays: replays,
    verdict: counts.counted > 0 ? "regressed" : "no-regression",
    notes: notesOf(older, newer, ordered),
  };
}

/**
 * The words the diff's console and Markdown renderings share: the headline, each change's
 * label and what it went from and to. Raw text: each renderer escapes it for its medium.
 */
import type { ClauseChange, ClauseSide, DiffCounts, ReportDiff } from "../core/report/diff-types.js";

const STATUS: Readonly<Record<ClauseSide["status"], string>> = { pass: "pass", fail: "fail", skip: "skipped", "not-applicable": "not applicable" };

const KIND_LABEL: Readonly<Record<ClauseChange["kind"], string>> = {
  regressed: "regressed",
  fixed: "fixed",
  "reason-changed": "changed reason",
  "became-applicable": "became applicable",
  "became-not-applicable": "became not applicable",
  "became-skipped": "became skipped",
  unskipped: "unskipped",
  added: "added",
  removed: "removed",
};

/** "regressed" for every regression (a clause that became applicable and fails is one), else the kind. */
export function changeLabel(change: ClauseChange): string {
  return change.regression ? "regressed" : KIND_LABEL[change.kind];
}

const LEVEL_FLAG: Readonly<Record<ReportDiff["level"], string>> = { must: "--level must", should: "--level should", all: "--level all" };

/** Why a regression fails nothing: its level is not counted, or NEW lists it as expected or flaky. */
export function notCountedWhy(change: ClauseChange, diff: ReportDiff): string | undefined {
  if (!change.regression || change.counted) return undefined;
  if (change.new?.expectation === "expected-failure") return "not counted: listed in --expected-failures";
  if (change.new?.expectation === "flaky") return "not counted: listed in --flaky";
  return `not counted: ${change.level} at ${LEVEL_FLAG[diff.level]}`;
}

/** What a side says in one line: "fail: request_id does not match (and 1 more)", "skipped: no invocation was sent". */
export function sideText(side: ClauseSide): string {
  const messages = side.messages ?? [];
  const why = side.status === "fail" ? messages[0] : side.reason;
  const more = messages.length > 1 ? ` (and ${messages.length - 1} more)` : "";
  const expectation = side.expectation === "expected-failure" ? " (expected)" : side.expectation === "flaky" ? " (flaky)" : "";
  return `${STATUS[side.status]}${expectation}${why !== undefined && why !== "" ? `: ${why.split(/\r?\n/, 1)[0] ?? ""}${more}` : ""}`;
}

/** "pass → fail: request_id does not match", "new clause (the kit added it): fail: ...". */
export function transitionText(change: ClauseChange): string {
  if (change.kind === "added" && change.new !== undefined) return `${change.why === "selection" ? "only NEW selected it" : "new in the kit"}; ${sideText(change.new)}`;
  if (change.kind === "removed" && change.old !== undefined) return `${change.why === "selection" ? "NEW left it out (--clause/--skip)" : "not in NEW's kit"}; was ${sideText(change.old)}`;
  if (change.old === undefined || change.new === undefined) return "";
  if (change.kind === "reason-changed") return `${sideText(change.old)} → ${sideText(change.new).replace(/^[^:]*: /, "")}`;
  const from = STATUS[change.old.status];
  return `${from} → ${sideText(change.new)}${change.new.status === "pass" && change.old.status === "fail" ? ` (was: ${sideText(change.old).replace(/^[^:]*: /, "")})` : ""}`;
}

const COUNT_WORDS: readonly (readonly [keyof DiffCounts, string])[] = [
  ["regressed", "regressed"],
  ["fixed", "fixed"],
  ["reasonChanged", "changed reason"],
  ["becameApplicable", "became applicable"],
  ["becameNotApplicable", "became not applicable"],
  ["becameSkipped", "became skipped"],
  ["unskipped", "unskipped"],
  ["added", "added"],
  ["removed", "removed"],
];

/** "1 regressed, 2 fixed", "1 regressed (not counted at --level must)", or "nothing changed (58 clauses)". */
export function headline(diff: ReportDiff): string {
  const parts = COUNT_WORDS.map(([key, words]) => [diff.counts[key], words] as const).filter(([n]) => n > 0).map(([n, words]) => `${n} ${words}`);
  if (diff.counts.regressed > 0 && diff.counts.counted < diff.counts.regressed) {
    parts[0] = `${parts[0]} (${diff.counts.counted === 0 ? "none" : diff.counts.counted} counted at ${LEVEL_FLAG[diff.level]})`;
  }
  if (diff.counts.newReplays > 0) parts.push(`${diff.counts.newReplays} new fuzz replay${diff.counts.newReplays === 1 ? "" : "s"}`);
  if (parts.length === 0) return `nothing changed (${diff.counts.unchanged} clause${diff.counts.unchanged === 1 ? "" : "s"} the same)`;
  return parts.join(", ");
}

/** The last word: does the diff fail, and at which level. */
export function verdictText(diff: ReportDiff): string {
  return diff.verdict === "regressed"
    ? `regressed: ${diff.counts.counted} clause${diff.counts.counted === 1 ? "" : "s"} at ${LEVEL_FLAG[diff.level]} (exit 1)`
    : `no regression at ${LEVEL_FLAG[diff.level]}`;
}

/**
 * How many cases a campaign generates: --fuzz-runs N (a count), --fuzz-time S (a time box:
 * cases until S seconds), or both (whichever ends first). With neither, the command's default
 * count (100 provider requests, 10 agent-cli sessions).
 */
import type { FuzzBudget } from "./types.js";

/**
 * The case count of a time box: more than any campaign reaches, so the time limit ends it.
 * fast-check generates lazily, so the count costs nothing; it stays a safe integer so case
 * indices and fast-check paths stay exact.
 */
export const TIME_BOXED_RUNS = Number.MAX_SAFE_INTEGER;

/** The case count a campaign runs with: --fuzz-runs, else unbounded under --fuzz-time alone, else the default. */
export function budgetRuns(fuzzRuns: number | undefined, fuzzTime: number | undefined, defaultRuns: number): { runs: number; timeBoxed: boolean } {
  if (fuzzRuns !== undefined) return { runs: fuzzRuns, timeBoxed: false };
  if (fuzzTime !== undefined) return { runs: TIME_BOXED_RUNS, timeBoxed: true };
  return { runs: defaultRuns, timeBoxed: false };
}

/** What bounds the campaign, in words: "100 runs", "cases until 60 s", "100 runs, at most 60 s". */
export function budgetText(budget: Pick<FuzzBudget, "runs" | "timeSeconds" | "timeBoxed">): string {
  if (budget.timeBoxed === true) return `cases until ${budget.timeSeconds ?? "?"} s`;
  return `${budget.runs} runs${budget.timeSeconds !== undefined ? `, at most ${budget.timeSeconds} s` : ""}`;
}

/** "after 12 of 100 cases", or under a time box "after 12 cases". */
export function casesSoFar(cases: number, budget: Pick<FuzzBudget, "runs" | "timeBoxed">): string {
  return budget.timeBoxed === true ? `after ${cases} cases` : `after ${cases} of ${budget.runs} cases`;
}

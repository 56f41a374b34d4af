import { KitError } from "../errors.js";
import { compilePattern } from "../clauses/patterns.js";
import { summarize } from "./judge.js";
import type { ClauseResult, CountedLevel, RunReport } from "./types.js";

/** One line of an --expected-failures or --flaky file: `PATTERN [@MODE]  # comment`. */
export interface ExpectationEntry {
  pattern: string;
  mode?: string;
  source: string;
}

const MODES = ["awp-jsonl", "stream-json"];

export function parseExpectations(text: string, source: string): ExpectationEntry[] {
  const entries: ExpectationEntry[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const [pattern, modeToken, ...extra] = line.split(/\s+/);
    const where = `${source}:${index + 1}`;
    if (pattern === undefined || extra.length > 0 || !/^[a-z0-9*/._-]+$/.test(pattern)) throw new KitError("usage", `${where}: expected "CLAUSE-PATTERN [@MODE]"`);
    if (modeToken !== undefined && !(modeToken.startsWith("@") && MODES.includes(modeToken.slice(1)))) throw new KitError("usage", `${where}: the mode must be @awp-jsonl or @stream-json`);
    entries.push({ pattern, ...(modeToken !== undefined ? { mode: modeToken.slice(1) } : {}), source: where });
  });
  return entries;
}

/** Entries that apply to this report: its protocol (by the pattern's first segment) and its mode. */
function applicable(entries: readonly ExpectationEntry[], report: RunReport): ExpectationEntry[] {
  return entries.filter((e) => {
    const head = e.pattern.split("/")[0] ?? "";
    const protocolOk = head.includes("*") || head === report.protocol;
    const modeOk = e.mode === undefined || e.mode === report.mode;
    return protocolOk && modeOk;
  });
}

export interface Expectations {
  expected: readonly ExpectationEntry[];
  flaky: readonly ExpectationEntry[];
  level?: CountedLevel;
}

/**
 * Marks listed failures as expected (or flaky), and lists what went stale: an expected
 * failure whose clause passed, or a pattern that matches no clause of the run.
 */
export function applyExpectations(report: RunReport, expectations: Expectations): RunReport {
  const expected = applicable(expectations.expected, report).map((e) => ({ entry: e, regex: compilePattern(e.pattern) }));
  const flaky = applicable(expectations.flaky, report).map((e) => ({ entry: e, regex: compilePattern(e.pattern) }));
  const stale: string[] = [];
  for (const { entry, regex } of expected) {
    const matched = report.clauses.filter((c) => regex.test(c.id));
    if (matched.length === 0) stale.push(`${entry.source}: ${entry.pattern} matches no clause of this run`);
    for (const c of matched.filter((m) => m.status === "pass")) stale.push(`${entry.source}: ${c.id} is listed as an expected failure but passed`);
  }
  const clauses: ClauseResult[] = report.clauses.map((c) => {
    const { expectation: _old, ...rest } = c;
    if (flaky.some(({ regex }) => regex.test(c.id))) return { ...rest, expectation: "flaky" };
    if (c.status === "fail" && expected.some(({ regex }) => regex.test(c.id))) return { ...rest, expectation: "expected-failure" };
    return rest;
  });
  const level = expectations.level ?? report.summary.level;
  return { ...report, clauses, summary: summarize(clauses, report.summary.deselected, { level, stale }) };
}

import { KitError } from "../errors.js";
import { compilePattern } from "../clauses/patterns.js";
import { LIST_LIMITS } from "../inputs/limits.js";
import { inputError } from "../inputs/read.js";
import { checkText, splitLines, withoutBom } from "../inputs/text.js";
import { printableLine as printable } from "../printable.js";
import { summarize } from "./judge.js";
import type { ClauseResult, CountedLevel, RunReport } from "./types.js";

/** One line of an --expected-failures or --flaky file: `PATTERN [@MODE]  # comment`. */
export interface ExpectationEntry {
  pattern: string;
  mode?: string;
  source: string;
}

const MODES = ["awp-jsonl", "stream-json"];

/**
 * Parses an --expected-failures or --flaky list. Errors read "FILE: what is wrong (line N)";
 * at most 500 entries, each pattern at most 128 characters (see src/core/inputs/limits.ts).
 */
export function parseExpectations(text: string, source: string): ExpectationEntry[] {
  const entries: ExpectationEntry[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/#[\s\S]*$/, "").trim();
    if (line === "") return;
    const [pattern, modeToken, ...extra] = line.split(/\s+/);
    const fail = (what: string): KitError => inputError(source, `${what} (line ${index + 1})`);
    if (pattern === undefined || extra.length > 0 || !/^[a-z0-9*/._-]+$/.test(pattern)) throw fail(`expected "CLAUSE-PATTERN [@MODE]", found ${printable(JSON.stringify(line.slice(0, 80)))}`);
    if (pattern.length > LIST_LIMITS.maxPatternChars) throw fail(`a pattern of ${pattern.length} characters, longer than the limit of ${LIST_LIMITS.maxPatternChars}`);
    if (modeToken !== undefined && !(modeToken.startsWith("@") && MODES.includes(modeToken.slice(1)))) throw fail("the mode must be @awp-jsonl or @stream-json");
    if (entries.length >= LIST_LIMITS.maxEntries) throw fail(`more than ${LIST_LIMITS.maxEntries} entries, the limit of a clause list`);
    entries.push({ pattern, ...(modeToken !== undefined ? { mode: modeToken.slice(1) } : {}), source: `${source}:${index + 1}` });
  });
  return entries;
}

/** The bytes of a list file: text (no NUL, UTF-8, a BOM skipped, CRLF fine) within the list limits, then parsed. */
export function parseExpectationFile(bytes: Uint8Array, file: string): ExpectationEntry[] {
  checkText(bytes, file);
  const body = withoutBom(bytes);
  splitLines(body, file, "list");
  return parseExpectations(Buffer.from(body).toString("utf8"), file);
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
  /** The report holds one shard's part of the clauses (--shard): nothing goes stale here, merge judges that on the whole. */
  partial?: boolean;
}

/**
 * Marks listed failures as expected (or flaky), and lists what went stale: an expected
 * failure whose clause passed, or a pattern that matches no clause of the run.
 */
export function applyExpectations(report: RunReport, expectations: Expectations): RunReport {
  const expected = applicable(expectations.expected, report).map((e) => ({ entry: e, regex: compilePattern(e.pattern) }));
  const flaky = applicable(expectations.flaky, report).map((e) => ({ entry: e, regex: compilePattern(e.pattern) }));
  const stale: string[] = [];
  for (const { entry, regex } of expectations.partial === true ? [] : expected) {
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

import { bucketOf } from "../core/report/judge.js";
import type { ClauseResult, Finding, RunReport } from "../core/report/types.js";
import { bundledLabel } from "./bundled.js";
import { junitDifferenceCases } from "./differences.js";
import { incompleteHeadline, reasonLine } from "./incomplete.js";
import { atBoundNote, atBoundSummary, kitBoundText } from "./kit-bound.js";
import { areaOf, clauseLink } from "./links.js";
import type { ReporterOptions } from "./types.js";
import { isPolicyTest, unitWord } from "./words.js";
import { xmlAttrs, xmlText } from "./xml.js";

/**
 * How a clause shows in JUnit. Only failures that count against the verdict are
 * `<failure>`s; expected, flaky and uncounted-level failures (warnings) are `<skipped>`
 * with their findings in `<system-out>`, so they stay visible without failing CI.
 */
type Outcome = "pass" | "failure" | "expected" | "flaky" | "warning" | "skip" | "not-applicable";

const OUTCOME: Readonly<Record<ReturnType<typeof bucketOf>, Outcome>> = {
  passed: "pass",
  failed: "failure",
  warnings: "warning",
  expectedFailures: "expected",
  flaky: "flaky",
  skipped: "skip",
  notApplicable: "not-applicable",
};

function outcomeOf(result: ClauseResult, report: RunReport): Outcome {
  return OUTCOME[bucketOf(result, report.summary.level)];
}

interface Tally {
  tests: number;
  failures: number;
  skipped: number;
}

function tally(results: readonly ClauseResult[], report: RunReport): Tally {
  const outcomes = results.map((r) => outcomeOf(r, report));
  return {
    tests: outcomes.length,
    failures: outcomes.filter((o) => o === "failure").length,
    skipped: outcomes.filter((o) => o !== "pass" && o !== "failure").length,
  };
}

/** A clause's time in seconds: the scenarios or calls that judged it (ClauseResult.durationMs); 0 when the report has none. */
function clauseSeconds(result: ClauseResult): string {
  const ms = result.durationMs;
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : "0";
}

/** Run duration in seconds. */
function runSeconds(report: RunReport): string {
  const ms = Date.parse(report.endedAt) - Date.parse(report.startedAt);
  return Number.isFinite(ms) && ms > 0 ? (ms / 1000).toFixed(3) : "0";
}

/** Continuation lines of a multi-line value, indented under their label. */
function hang(text: string, pad: string): string {
  return text.replace(/\r?\n$/, "").split(/\r?\n/).join(`\n${pad}`);
}

function findingLines(finding: Finding, n: number): string[] {
  const where = [finding.scenario, finding.requestId !== undefined ? `request ${finding.requestId}` : undefined]
    .filter((part): part is string => part !== undefined && part !== "")
    .join(" · ");
  const origin = finding.foundBy === "fuzz" ? "found by fuzzing: " : "";
  const lines = [`${n}. ${origin}${hang(finding.message, "   ")}${where ? `  [${where}]` : ""}`];
  if (finding.expected !== undefined) lines.push(`   expected: ${hang(finding.expected, "             ")}`);
  if (finding.seen !== undefined) lines.push(`   seen:     ${hang(finding.seen, "             ")}`);
  for (const evidence of finding.evidence ?? []) {
    const seq = evidence.seq !== undefined ? ` #${evidence.seq}` : "";
    const at = evidence.line !== undefined ? ` (line ${evidence.line}${evidence.column !== undefined ? `, column ${evidence.column}` : ""})` : "";
    lines.push(`   ${evidence.stream ?? "evidence"}${seq}${at}: ${hang(evidence.excerpt, "     ")}`);
  }
  if (finding.kitBound !== undefined) lines.push(`   bound:    ${hang(kitBoundText(finding.kitBound), "             ")}`);
  if (finding.reproduce !== undefined) lines.push(`   reproduce: ${hang(finding.reproduce, "              ")}`);
  if (finding.foundBy !== undefined) lines.push(`   found by: ${finding.foundBy}`);
  if (finding.wire !== undefined && finding.wire.length > 0) {
    lines.push("   wire:");
    for (const entry of finding.wire) {
      const mark = entry.highlight === true ? ">" : " ";
      const cut = entry.truncated === true ? " …(truncated)" : "";
      lines.push(`   ${mark} [${entry.t} ms] ${entry.stream}: ${hang(entry.text, "       ")}${cut}`);
    }
  }
  return lines;
}

/** Every finding of a clause (up to maxFindings when given), and the clause's documentation link. */
function findingsText(result: ClauseResult, options: ReporterOptions): string {
  const max = options.maxFindings ?? result.findings.length;
  const lines = result.findings.slice(0, max).flatMap((f, i) => findingLines(f, i + 1));
  if (result.findings.length > max) lines.push(`… and ${result.findings.length - max} more in the JSON report`);
  const link = clauseLink(result.id, options.docsUrl);
  if (link !== undefined) lines.push(`see: ${link}`);
  return `${lines.join("\n")}\n`;
}

function headline(result: ClauseResult): string {
  const first = result.findings[0]?.message ?? "failed";
  const more = result.findings.length > 1 ? ` (and ${result.findings.length - 1} more finding${result.findings.length > 2 ? "s" : ""})` : "";
  return `${first}${more}`;
}

function skipText(result: ClauseResult, outcome: Outcome, report: RunReport): string | undefined {
  switch (outcome) {
    case "skip":
      return result.reason ?? "skipped";
    case "not-applicable":
      return `not applicable: ${result.reason ?? "nothing to judge"}`;
    case "expected":
      return `expected failure: ${headline(result)}`;
    case "flaky":
      return `flaky: ${headline(result)}`;
    case "warning":
      return `warning: ${result.level} failure not counted at --level ${report.summary.level}: ${headline(result)}`;
    default:
      return undefined;
  }
}

function testcase(result: ClauseResult, report: RunReport, options: ReporterOptions): string[] {
  const outcome = outcomeOf(result, report);
  const open = `    <testcase${xmlAttrs({ classname: areaOf(result.id), name: isPolicyTest(report) ? result.id : `${result.id} — ${result.title}`, time: clauseSeconds(result) })}`;
  const skipped = skipText(result, outcome, report);
  if (outcome === "pass") return [`${open}/>`];
  const body: string[] = [];
  if (skipped !== undefined) body.push(`      <skipped>${xmlText(skipped)}</skipped>`);
  if (outcome === "failure") {
    const bound = atBoundNote(result);
    body.push(`      <failure${xmlAttrs({ message: `${bound !== "" ? `${bound}: ` : ""}${headline(result)}`, type: result.level })}>${xmlText(findingsText(result, options))}</failure>`);
  } else if (result.findings.length > 0) {
    body.push(`      <system-out>${xmlText(findingsText(result, options))}</system-out>`);
  }
  return [`${open}>`, ...body, "    </testcase>"];
}

/** Run-level facts, repeated in every suite (JUnit has properties on suites only). */
function properties(report: RunReport): [string, string][] {
  const s = report.summary;
  const props: [string, string][] = [
    ["candidate.argv", JSON.stringify(report.candidate.argv)],
    ["protocol", report.protocol],
  ];
  if (report.candidate.bundled !== undefined) props.push(["candidate.bundled", String(report.candidate.bundled)]);
  if (report.mode !== undefined) props.push(["mode", report.mode]);
  props.push(
    ["kit.name", report.tool.name],
    ["kit.version", report.tool.version],
    ["verdict", s.verdict],
    ["conformant", String(s.conformant)],
    ["level", s.level],
    ["startedAt", report.startedAt],
    ["endedAt", report.endedAt],
  );
  const atBound = atBoundSummary(report);
  if (atBound !== "") props.push(["atKitBound", atBound]);
  s.incomplete.forEach((group, i) => props.push([`incomplete.${i + 1}`, `${group.reason}: ${group.clauses.join(", ")}`]));
  s.stale.forEach((entry, i) => props.push([`stale.${i + 1}`, entry]));
  report.notes.forEach((note, i) => props.push([`note.${i + 1}`, note]));
  return props;
}

function suiteLines(name: string, t: Tally, cases: string[], report: RunReport): string[] {
  // Every suite is part of the one run (its clauses were judged on shared scenarios and calls): its time is the run's.
  const attrs = { name, tests: t.tests, failures: t.failures, errors: 0, skipped: t.skipped, time: runSeconds(report), timestamp: report.startedAt };
  return [
    `  <testsuite${xmlAttrs(attrs)}>`,
    "    <properties>",
    ...properties(report).map(([key, value]) => `      <property${xmlAttrs({ name: key, value })}/>`),
    "    </properties>",
    ...cases,
    "  </testsuite>",
  ];
}

function suite(name: string, results: readonly ClauseResult[], report: RunReport, options: ReporterOptions): string[] {
  return suiteLines(name, tally(results, report), results.flatMap((r) => testcase(r, report, options)), report);
}

/** Name of the suite of run-level testcases (no protocol area is called that). */
export const RUN_SUITE = "run";

interface RunCase {
  name: string;
  message: string;
  type: string;
  body: string[];
}

/**
 * Failing testcases for what fails the run without a failing clause: an incomplete run, a
 * run that judged nothing, stale expected-failure entries. JUnit readers count failures
 * only, so without these such a run would read as all green (its clauses pass or skip).
 */
function runCases(report: RunReport): RunCase[] {
  const s = report.summary;
  const cases: RunCase[] = [];
  if (s.verdict === "incomplete") {
    const headline = incompleteHeadline(report);
    const body = ["To make the run complete:", ...s.incomplete.flatMap((g) => [`- ${reasonLine(g, unitWord(report))}`, ...g.clauses.map((id) => `    ${id}`)])];
    cases.push({ name: `run is incomplete — ${headline}`, message: `run is incomplete: ${headline}`, type: "incomplete", body });
  }
  if (s.verdict === "nothing-judged") {
    const message = `no ${unitWord(report)} was judged (all skipped, not applicable or deselected): a vacuous run is not a pass`;
    cases.push({ name: "nothing was judged", message, type: "nothing-judged", body: [message] });
  }
  if (s.stale.length > 0) {
    const message = "expected-failure entries no longer hold: remove them (or fix the list)";
    cases.push({ name: "expected-failure entries are stale", message, type: "stale", body: s.stale.map((entry) => `- ${entry}`) });
  }
  // fuzz --against: each difference between the two providers fails the run (core/report/differential.ts).
  cases.push(...junitDifferenceCases(report));
  return cases;
}

function runSuite(report: RunReport, name: string): string[] {
  const cases = runCases(report);
  if (cases.length === 0) return [];
  const lines = cases.flatMap((c) => [
    `    <testcase${xmlAttrs({ classname: RUN_SUITE, name: c.name, time: "0" })}>`,
    `      <failure${xmlAttrs({ message: c.message, type: c.type })}>${xmlText(`${c.body.join("\n")}\n`)}</failure>`,
    "    </testcase>",
  ]);
  return suiteLines(name, { tests: cases.length, failures: cases.length, skipped: 0 }, lines, report);
}

/**
 * JUnit XML, valid against the Jenkins JUnit schema: one `<testsuite>` per protocol area,
 * one `<testcase>` per clause, and first a `run` suite of failing testcases when the run fails
 * or is incomplete without a failing clause. An empty run still gets one (empty) area suite,
 * to carry the properties.
 */
export function renderJunit(report: RunReport, options: ReporterOptions): string {
  const areas = new Map<string, ClauseResult[]>();
  for (const result of report.clauses) {
    const area = areaOf(result.id);
    areas.set(area, [...(areas.get(area) ?? []), result]);
  }
  if (areas.size === 0) areas.set(report.protocol, []);
  const t = tally(report.clauses, report);
  const run = runCases(report).length;
  const bundled = bundledLabel(report);
  const suiteName = (suite: string): string => (bundled !== undefined ? `${bundled}: ${suite}` : suite);
  const name = `${report.tool.name}${bundled !== undefined ? `: ${bundled}` : ""} ${report.protocol}${report.mode !== undefined ? ` (${report.mode})` : ""}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${xmlAttrs({ name, tests: t.tests + run, failures: t.failures + run, errors: 0, time: runSeconds(report) })}>`,
    // A bundled example's suites carry its name, so a CI dashboard never shows them as the user's candidate's.
    ...runSuite(report, suiteName(RUN_SUITE)),
    ...[...areas].flatMap(([area, results]) => suite(suiteName(area), results, report, options)),
    "</testsuites>",
  ];
  return `${lines.join("\n")}\n`;
}

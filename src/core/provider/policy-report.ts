import { compilePattern, matchesAny } from "../clauses/patterns.js";
import { buildReport } from "../report/build.js";
import type { RunReport } from "../report/types.js";
import { fileStem, type PolicyCase } from "./policy-cases.js";
import { judgePolicyCases, type PolicyRecord } from "./policy-judge.js";

/**
 * --case PATTERN: a case is selected when a pattern matches its name, or its name under its
 * file's stem ("policy-tests/blocks listed tools"): the clause pattern language, so `*`
 * stays within a segment, `**` crosses them, and a table's name selects all its rows.
 */
export function selectCases(cases: readonly PolicyCase[], patterns: readonly string[]): PolicyCase[] {
  if (patterns.length === 0) return [...cases];
  const compiled = patterns.map(compilePattern);
  return cases.filter((c) => matchesAny(c.name, compiled) || matchesAny(`${fileStem(c.file)}/${c.name}`, compiled));
}

export interface PolicyReportInput {
  argv: string[];
  files: string[];
  record: PolicyRecord;
  startedAt: Date;
  endedAt: Date;
  options: Record<string, unknown>;
  /** --case patterns, and how many cases they left out. */
  selection: string[];
  deselected: number;
}

/** The RunReport of a policy test: one entry per case (id policy-test/<file stem>/<name>, level MUST). */
export function policyReport(input: PolicyReportInput): RunReport {
  const judged = judgePolicyCases(input.record);
  const notes = judged.notes;
  // A case's time is its call's (JUnit's testcase time); a case not sent has none.
  const results = judged.results.map((r, index) => {
    const call = input.record.invocations.get(index);
    return call !== undefined && (r.status === "pass" || r.status === "fail") ? { ...r, durationMs: Math.round(call.outcome.durationMs) } : r;
  });
  const transcript = input.record.transcript;
  return buildReport({
    protocol: "policy-test",
    argv: input.argv,
    startedAt: input.startedAt,
    endedAt: input.endedAt,
    options: { ...input.options, caseFiles: input.files, calls: transcript.exchanges.length },
    selection: { clause: input.selection, skip: [] },
    results,
    deselected: input.deselected,
    notes: [...transcript.context.notes, ...notes],
    secrets: transcript.context.secrets,
    ...(input.record.halted !== undefined ? { halted: input.record.halted } : {}),
  });
}

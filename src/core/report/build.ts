import { kitVersion } from "../paths.js";
import { makeRedactor, redactDeep } from "./redact.js";
import { summarize } from "./judge.js";
import type { ClauseResult, ReportProtocol, RunReport } from "./types.js";

export interface ReportInput {
  protocol: ReportProtocol;
  mode?: string;
  argv: string[];
  startedAt: Date;
  endedAt: Date;
  options: Record<string, unknown>;
  selection: { clause: string[]; skip: string[] };
  results: ClauseResult[];
  deselected: number;
  notes: string[];
  /** Why the run stopped early or could judge little (see RunReport.halted). */
  halted?: string;
  /** Values that must never appear in the report. */
  secrets: string[];
}

/** Wire logs are kept for the first findings of each clause only, so reports stay bounded. */
export const WIRE_FINDINGS_PER_CLAUSE = 3;

function boundWire(results: ClauseResult[]): ClauseResult[] {
  return results.map((r) => ({ ...r, findings: r.findings.map((f, i) => (i < WIRE_FINDINGS_PER_CLAUSE || f.wire === undefined ? f : (({ wire: _wire, ...rest }) => rest)(f))) }));
}

/** Assembles the RunReport; every string in it is passed through the secret redactor. */
export function buildReport(input: ReportInput): RunReport {
  const report: RunReport = {
    reportVersion: 1,
    tool: { name: "awp-conformance", version: kitVersion() },
    protocol: input.protocol,
    ...(input.mode !== undefined ? { mode: input.mode } : {}),
    candidate: { argv: input.argv },
    startedAt: input.startedAt.toISOString(),
    endedAt: input.endedAt.toISOString(),
    options: input.options,
    selection: input.selection,
    summary: summarize(input.results, input.deselected),
    clauses: boundWire(input.results),
    notes: input.notes,
    ...(input.halted !== undefined ? { halted: input.halted } : {}),
  };
  return redactDeep(report, makeRedactor(input.secrets));
}

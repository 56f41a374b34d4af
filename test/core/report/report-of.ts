import { summarize } from "../../../src/core/report/judge.js";
import type { ClauseResult, RunReport } from "../../../src/core/report/types.js";

/** A minimal, schema-valid run report around these clause results (fixed times and tool version); `extra` overrides any field. */
export function reportOf(clauses: ClauseResult[], extra: Partial<RunReport> = {}): RunReport {
  return {
    reportVersion: 1,
    tool: { name: "awp-conformance", version: "0" },
    protocol: "provider",
    candidate: { argv: ["p"] },
    startedAt: "2026-01-01T00:00:00.000Z",
    endedAt: "2026-01-01T00:00:01.000Z",
    options: {},
    selection: { clause: [], skip: [] },
    summary: summarize(clauses, 0),
    clauses,
    notes: [],
    ...extra,
  };
}

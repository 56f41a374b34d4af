/**
 * The test suite's watch over every report the kit emits (the rule: no clause passes with
 * nothing judged). When AWP_CONFORMANCE_REPORT_AUDIT names a folder, which only the test
 * setup sets (test/setup/report-audit.ts), each emitted report leaves one small file there:
 * where it went, what it was about, and every clause's id, status and judged count. The test
 * run reads them all at its end, apart from the kit's own code. Unset, this does nothing.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { KitError } from "../core/errors.js";
import type { RunReport } from "../core/report/types.js";
import { REPORT_AUDIT_ENV } from "../runner/audit-env.js";

export { REPORT_AUDIT_ENV };


/** What the audit keeps of one report: enough to name it, and each clause as [id, status, judged]. */
export interface AuditRecord {
  outDir: string;
  protocol: string;
  argv: string[];
  clauses: [string, string, number][];
}

let written = 0;

/** Leaves the report's audit record in the folder AWP_CONFORMANCE_REPORT_AUDIT names, if it names one. */
export function auditReport(report: RunReport, outDir: string): void {
  const dir = process.env[REPORT_AUDIT_ENV];
  if (dir === undefined || dir === "") return;
  const record: AuditRecord = { outDir: resolve(outDir), protocol: report.protocol, argv: report.candidate.argv.slice(0, 4), clauses: report.clauses.map((c) => [c.id, c.status, c.judged]) };
  const file = join(dir, `${process.pid}-${Date.now()}-${++written}.json`);
  try {
    writeFileSync(file, JSON.stringify(record));
  } catch (error) {
    throw new KitError("io_failed", `cannot write the report audit record ${file} (${REPORT_AUDIT_ENV}): ${(error as Error).message}`);
  }
}

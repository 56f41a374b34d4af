/**
 * Vitest global setup: no clause in any report the test suite makes the kit write passes with
 * nothing judged. It names a fresh folder in AWP_CONFORMANCE_REPORT_AUDIT (inherited by the test
 * workers and every kit process they start); each report the kit emits leaves its clauses there
 * (src/cli/report-audit.ts). At the end of the run every record is checked here, independently
 * of the kit's own rule, and a violation fails the run (exit code 1) naming the report and clause.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPORT_AUDIT_ENV, type AuditRecord } from "../../src/cli/report-audit.js";

/** Every clause of the records that passes with judged < 1, as "report: clause (judged N)". */
export function hollowPasses(records: readonly { file: string; record: AuditRecord }[]): string[] {
  return records.flatMap(({ file, record }) =>
    record.clauses.filter(([, status, judged]) => status === "pass" && !(judged >= 1)).map(([id, , judged]) => `${record.protocol} report in ${record.outDir} (${record.argv.join(" ")}; ${file}): ${id} passes with judged ${judged}`),
  );
}

/** Reads every record in the folder. */
export function readRecords(dir: string): { file: string; record: AuditRecord }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ file: name, record: JSON.parse(readFileSync(join(dir, name), "utf8")) as AuditRecord }));
}

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "awp-report-audit-"));
  process.env[REPORT_AUDIT_ENV] = dir;
  return () => {
    try {
      const records = readRecords(dir);
      const hollow = hollowPasses(records);
      if (hollow.length > 0) {
        process.stderr.write(`\nReport audit: ${hollow.length} clause result(s) in reports the tests made the kit write pass with nothing judged:\n${hollow.map((h) => `  ${h}`).join("\n")}\n`);
        // Vitest 4 does not fail the run for an error thrown here; the exit code does.
        process.exitCode = 1;
      } else if (records.length > 0) {
        process.stderr.write(`Report audit: ${records.length} report(s) the tests made the kit write, no clause passing with nothing judged.\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

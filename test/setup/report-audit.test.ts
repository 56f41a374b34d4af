/**
 * The suite-wide audit of the reports the tests make the kit write (test/setup/report-audit.ts):
 * the kit leaves each emitted report's clauses in the folder the setup names, and the check at
 * the end of the run finds a pass with nothing judged, naming the report and the clause.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { emitReport } from "../../src/cli/output.js";
import { REPORT_AUDIT_ENV } from "../../src/cli/report-audit.js";
import type { ClauseResult } from "../../src/core/report/types.js";
import { reportOf } from "../core/report/report-of.js";
import { hollowPasses, readRecords } from "./report-audit.js";

const result = (id: string, status: ClauseResult["status"], judged: number): ClauseResult => ({ id, level: "MUST", title: id, status, judged, findings: status === "fail" ? [{ clause: id, message: "x" }] : [], ...(status === "skip" ? { reason: "r" } : {}) });

describe("the report audit", () => {
  const before = process.env[REPORT_AUDIT_ENV];
  const dirs: string[] = [];
  afterEach(() => {
    if (before === undefined) delete process.env[REPORT_AUDIT_ENV];
    else process.env[REPORT_AUDIT_ENV] = before;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "awp-audit-test-"));
    dirs.push(dir);
    return dir;
  };

  it("is on for this test run: the setup named a folder every kit process inherits", () => {
    expect(before).toMatch(/awp-report-audit-/);
  });

  it("records every report the kit emits, whatever its reporters, and finds a pass with nothing judged in it", async () => {
    const dir = temp();
    process.env[REPORT_AUDIT_ENV] = dir;
    const good = reportOf([result("provider/a/one", "pass", 2), result("provider/a/two", "skip", 0)]);
    await emitReport(good, { reporters: [], outDir: join(dir, "good-out"), color: false, print: () => undefined });
    // A report that bypassed the judge (its summary from another), as a kit bug would write it.
    const bad = { ...good, clauses: [result("provider/a/one", "pass", 0), result("provider/a/two", "fail", 0)] };
    await emitReport(bad, { reporters: [], outDir: join(dir, "bad-out"), color: false, print: () => undefined });
    const records = readRecords(dir);
    expect(records).toHaveLength(2);
    const hollow = hollowPasses(records);
    expect(hollow).toHaveLength(1);
    expect(hollow[0]).toMatch(/^provider report in .*bad-out \(p; \d+-\d+-\d+\.json\): provider\/a\/one passes with judged 0$/);
  });

  it("records nothing when no folder is named", async () => {
    const dir = temp();
    delete process.env[REPORT_AUDIT_ENV];
    await emitReport(reportOf([result("provider/a/one", "pass", 1)]), { reporters: [], outDir: dir, color: false, print: () => undefined });
    expect(readdirSync(dir)).toEqual([]);
  });
});

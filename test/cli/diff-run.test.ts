/**
 * Around the pure diff: fuzz replays told apart by the content of their files (wherever the
 * reports put them), the formats written, and the exit code of run --baseline.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baselineExitCode } from "../../src/cli/baseline.js";
import { checkDiffFormats, diffSaved, emitDiff, replayIdentities } from "../../src/cli/diff-run.js";
import { KitError } from "../../src/core/errors.js";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";
import { diffReports } from "../../src/core/report/diff-compare.js";
import { reportOf } from "../core/report/report-of.js";
import { ROOT } from "../integration/cli.js";

const root = mkdtempSync(join(tmpdir(), "awp-diff-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CLAUSE = "provider/transport/valid-request-exits-zero";
const LONG_NAME = join(ROOT, "golden/regressions/provider-crash-on-long-tool-name.json");
const NESTING = join(ROOT, "golden/regressions/provider-crash-on-nesting-20.json");

/** A report whose one clause failed on fuzz cases saved at these replay paths. */
function fuzzReport(files: string[], seed: number): RunReport {
  const findings = files.map((file, i) => ({ clause: CLAUSE, message: "exited 1", foundBy: "fuzz" as const, fuzzCase: { seed, path: `${i}:0`, file } }));
  return reportOf([{ id: CLAUSE, level: "MUST", title: "t", status: "fail", judged: 1, findings }]);
}

function place(source: string, ...parts: string[]): string {
  const path = join(root, ...parts);
  mkdirSync(join(path, ".."), { recursive: true });
  copyFileSync(source, path);
  return path;
}

describe("replayIdentities: fuzz cases by the content of their replay files", () => {
  it("the same case saved under another name and seed is not new; another case is", () => {
    const old = { report: fuzzReport([place(LONG_NAME, "a", "replays", "x-1.json")], 1), file: join(root, "a", "report.json") };
    const now = { report: fuzzReport([place(LONG_NAME, "b", "replays", "y-2.json"), place(NESTING, "b", "replays", "z-2.json")], 2), file: join(root, "b", "report.json") };
    const diff = diffSaved(old, now, "must");
    expect(diff.newReplays.map((r) => r.file)).toEqual([join(root, "b", "replays", "z-2.json")]);
    expect(diff.newReplays[0]?.identity).toMatch(/^provider-[0-9a-f]{16}$/);
    expect(diff.notes).toEqual([]);
  });

  it("finds a replay file in the replays/ folder beside its report when the recorded path moved (a CI artifact)", () => {
    place(LONG_NAME, "moved", "replays", "x-1.json");
    const old = { report: fuzzReport(["/runner/work/reports/replays/x-1.json"], 1), file: join(root, "moved", "report.json") };
    const { notes } = replayIdentities(old, old);
    expect(notes).toEqual([]);
  });

  it("a replay file it cannot read: every case by seed and path, and a note naming the file", () => {
    const old = { report: fuzzReport(["/nowhere/replays/x-1.json"], 1), file: join(root, "none", "report.json") };
    const now = { report: fuzzReport([place(LONG_NAME, "c", "replays", "x-1.json")], 1), file: join(root, "c", "report.json") };
    const diff = diffSaved(old, now, "must");
    expect(diff.notes).toEqual([`Fuzz cases are compared by seed and path, not by content: the replay file /nowhere/replays/x-1.json of ${old.file} could not be read.`]);
    expect(diff.newReplays).toEqual([]);
  });
});

describe("emitDiff", () => {
  const diff = diffReports(reportOf([]), reportOf([]));
  it("writes diff.md and diff.json (valid against its schema) and prints the console form", () => {
    const out = join(root, "out");
    const printed: string[] = [];
    const written = emitDiff(diff, { formats: ["console", "markdown", "json"], outDir: out, color: false, print: (t) => void printed.push(t) });
    expect(written).toEqual([join(out, "diff.md"), join(out, "diff.json")]);
    expect(kitSchema("diff.schema.json")(JSON.parse(readFileSync(join(out, "diff.json"), "utf8")))).toBe(true);
    expect(printed.join("")).toMatch(/nothing changed/);
    expect(existsSync(join(out, "report.json"))).toBe(false);
  });

  it("appends the Markdown to $GITHUB_STEP_SUMMARY when asked (run --baseline --reporter github), and nothing when it is unset", () => {
    const summary = join(root, "step-summary.md");
    writeFileSync(summary, "## the run's own summary\n\n");
    emitDiff(diff, { formats: [], outDir: root, color: false, stepSummary: true, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(readFileSync(summary, "utf8")).toMatch(/^## the run's own summary\n\n## ✅ No regression: nothing changed/);
    expect(emitDiff(diff, { formats: [], outDir: root, color: false, stepSummary: true, env: {} })).toEqual([]);
  });

  it("refuses a format it does not have, naming those it has", () => {
    expect(() => checkDiffFormats(["console", "html"])).toThrow(new KitError("usage", "--format html: the diff's formats are console, markdown, json"));
  });
});

describe("baselineExitCode: run --baseline fails on regressions, not on known failures", () => {
  const pass = (id: string): ClauseResult => ({ id, level: "MUST", title: "t", status: "pass", judged: 1, findings: [] });
  const fail = (id: string): ClauseResult => ({ id, level: "MUST", title: "t", status: "fail", judged: 1, findings: [{ clause: id, message: "m" }] });
  const skip = (id: string): ClauseResult => ({ id, level: "MUST", title: "t", status: "skip", reason: "r", judged: 0, findings: [] });
  const code = (older: ClauseResult[], newer: ClauseResult[], stale: string[] = []): number => {
    const now = reportOf(newer, { summary: summarize(newer, 0, { stale }) });
    return baselineExitCode(now.summary, diffReports(reportOf(older), now));
  };
  const [a, b, c] = ["provider/x/a", "provider/x/b", "provider/x/c"];

  it.each<[string, ClauseResult[], ClauseResult[], number]>([
    ["a failure the baseline had: 0 (the run alone would exit 1)", [fail(a!), pass(b!)], [fail(a!), pass(b!)], 0],
    ["a failure the baseline had, with another message: 0", [fail(a!)], [{ ...fail(a!), findings: [{ clause: a!, message: "other" }] }], 0],
    ["a clause that regressed: 1", [pass(a!), pass(b!)], [fail(a!), pass(b!)], 1],
    ["a passing clause now skipped: 1 (a proof lost)", [pass(a!), pass(b!)], [skip(a!), pass(b!)], 1],
    ["no regression, a counted clause still skipped: 4 (incomplete)", [skip(c!), pass(a!)], [skip(c!), pass(a!)], 4],
    ["nothing judged: 1", [skip(a!)], [skip(a!)].map((r) => ({ ...r, status: "not-applicable" as const })), 1],
    ["everything passes: 0", [fail(a!)], [pass(a!)], 0],
  ])("%s", (_what, older, newer, expected) => {
    expect(code(older, newer)).toBe(expected);
  });

  it("a stale --expected-failures entry: 1, as without a baseline", () => {
    expect(code([pass(a!)], [pass(a!)], ["provider/x/a (expected.txt:1) passed"])).toBe(1);
  });
});

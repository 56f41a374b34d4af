/**
 * The matrix is a pure function of saved reports (src/core/report/matrix.ts): rows are every
 * clause any report holds, cells each report's own status, and a row disagrees exactly when two
 * implementations with a result differ on pass, fail, skip or not applicable.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../../src/core/clauses/catalogue.js";
import { summarize } from "../../../src/core/report/judge.js";
import { buildMatrix, type MatrixInput } from "../../../src/core/report/matrix.js";
import type { ClauseResult, RunReport } from "../../../src/core/report/types.js";
import { kitSchema } from "../../../src/core/schema.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const TOOL = { name: "awp-conformance", version: "0.0.0-test" };

/** The report with the named clauses' results replaced, its summary judged again. */
function withResults(report: RunReport, change: Record<string, Partial<ClauseResult>>): RunReport {
  const clauses = report.clauses.map((c) => (change[c.id] === undefined ? c : { ...c, ...change[c.id] }));
  return { ...report, clauses, summary: summarize(clauses, report.summary.deselected, { level: report.summary.level }) };
}

const column = (name: string, report: RunReport | undefined, failure?: string): MatrixInput => ({
  name,
  dir: name,
  protocol: report?.protocol ?? "provider",
  origin: "report",
  ...(report !== undefined ? { report } : {}),
  ...(failure !== undefined ? { failure } : {}),
});

describe("buildMatrix", () => {
  const provider = load("provider-sample");

  it("of a report with itself: every clause a row, none disagrees, and the roll-ups add up to the report's summary", () => {
    const matrix = buildMatrix([column("a", provider), column("b", provider)], TOOL);
    expect(matrix.sections).toHaveLength(1);
    const [section] = matrix.sections;
    expect(section?.rows.map((r) => r.id).sort()).toEqual(provider.clauses.map((c) => c.id).sort());
    expect(section?.rows.filter((r) => r.disagree)).toEqual([]);
    const total = (key: "pass" | "fail" | "warning" | "expected" | "skip" | "na"): number => (section?.areas ?? []).reduce((n, a) => n + (a.columns[0]?.[key] ?? 0), 0);
    expect(total("pass")).toBe(provider.summary.passed);
    expect(total("fail")).toBe(provider.summary.failed);
    expect(total("warning")).toBe(provider.summary.warnings);
    expect(total("expected")).toBe(provider.summary.expectedFailures);
    expect(total("skip")).toBe(provider.summary.skipped);
    expect(section?.levels.map((l) => l.name)).toEqual(["MUST", "SHOULD", "MAY"].filter((l) => provider.clauses.some((c) => c.level === l)));
  });

  it("counts a failure its run does not count (a SHOULD failure at --level must) as a warning in the roll-ups, not a failure", () => {
    const should = provider.clauses.find((c) => c.level === "SHOULD" && c.status === "pass") as ClauseResult;
    const warned = withResults(provider, { [should.id]: { status: "fail", judged: 1, findings: [{ clause: should.id, message: "broken" }] } });
    expect(warned.summary.warnings).toBe(1);
    const section = buildMatrix([column("w", warned)], TOOL).sections[0];
    const level = section?.levels.find((l) => l.name === "SHOULD")?.columns[0];
    expect(level?.warning).toBe(1);
    expect(level?.fail).toBe(0);
    const area = section?.areas.find((a) => should.id.startsWith(`${a.name}/`))?.columns[0];
    expect(area?.warning).toBe(1);
  });

  it("marks exactly the clauses whose status differs as disagreeing", () => {
    const passing = provider.clauses.find((c) => c.status === "pass") as ClauseResult;
    const skipped = provider.clauses.find((c) => c.status === "skip") as ClauseResult;
    const other = withResults(provider, {
      [passing.id]: { status: "fail", judged: 1, findings: [{ clause: passing.id, message: "broken" }] },
      [skipped.id]: { status: "pass", judged: 2, findings: [] },
    });
    delete (other.clauses.find((c) => c.id === skipped.id) as ClauseResult).reason;
    const section = buildMatrix([column("ref", provider), column("other", other)], TOOL).sections[0];
    expect(section?.rows.filter((r) => r.disagree).map((r) => r.id).sort()).toEqual([passing.id, skipped.id].sort());
    const row = section?.rows.find((r) => r.id === passing.id);
    expect(row?.cells).toEqual([{ status: "pass" }, { status: "fail", counted: passing.level === "MUST", findings: 1 }]);
    expect(section?.areas.find((a) => a.name === row?.area)?.disagree).toBeGreaterThanOrEqual(1);
  });

  it("counts an expected or flaky failure as a failure, and a clause one report lacks as no disagreement", () => {
    const failing = provider.clauses.find((c) => c.status === "fail" && c.expectation === undefined) as ClauseResult;
    const expected = withResults(provider, { [failing.id]: { expectation: "expected-failure" } });
    const narrowed = { ...provider, clauses: provider.clauses.filter((c) => c.id !== failing.id) };
    const narrowedReport = { ...narrowed, summary: summarize(narrowed.clauses, 1, { level: "must" }) };
    const section = buildMatrix([column("a", provider), column("b", expected), column("c", narrowedReport)], TOOL).sections[0];
    const row = section?.rows.find((r) => r.id === failing.id);
    expect(row?.cells.map((c) => c.status)).toEqual(["fail", "expected", "absent"]);
    expect(row?.disagree).toBe(false);
  });

  it("keeps a candidate without a report as a column that says why, its cells 'no-report', agreeing with nobody", () => {
    const matrix = buildMatrix([column("ref", provider), column("broken", undefined, "cannot start: ENOENT")], TOOL);
    const section = matrix.sections[0];
    expect(section?.columns.map((c) => [c.name, c.failure])).toEqual([["ref", undefined], ["broken", "cannot start: ENOENT"]]);
    expect(section?.rows.every((r) => r.cells[1]?.status === "no-report" && !r.disagree)).toBe(true);
    expect(section?.areas.every((a) => a.columns[1]?.["no-report"] === a.rows)).toBe(true);
  });

  it("puts reports of different protocols in separate sections, rows in catalogue order, with each one's mode and kit version", () => {
    const agent = load("agent-cli-sample");
    const matrix = buildMatrix([column("p", provider), column("a", agent), column("q", load("provider-incomplete-sample"))], TOOL);
    expect(matrix.sections.map((s) => [s.protocol, s.columns.map((c) => c.name)])).toEqual([["provider", ["p", "q"]], ["agent-cli", ["a"]]]);
    const agentSection = matrix.sections[1];
    expect(agentSection?.columns[0]).toMatchObject({ mode: agent.mode, toolVersion: agent.tool.version, verdict: agent.summary.verdict, exitCode: 1 });
    const order = loadCatalogue("agent-cli").map((c) => c.id);
    const ids = agentSection?.rows.map((r) => r.id) ?? [];
    expect(ids).toEqual([...ids].sort((x, y) => order.indexOf(x) - order.indexOf(y)));
    // The areas come in one block each: rows are grouped by area.
    const areas = ids.map((id) => id.split("/").slice(0, 2).join("/"));
    expect(areas.filter((a, i) => a !== areas[i - 1])).toEqual([...new Set(areas)]);
    expect(matrix.sources.map((s) => s.title)).toEqual(expect.arrayContaining(["aw-provider/v1alpha1 provider protocol", "AWP Agent CLI protocol"]));
    for (const s of matrix.sources) expect(s.url).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//);
  });

  it("is valid against schemas/matrix.schema.json, and a tampered one is not", () => {
    const validate = kitSchema("matrix.schema.json");
    const matrix = JSON.parse(JSON.stringify(buildMatrix([column("p", provider), column("a", load("agent-cli-sample")), column("x", undefined, "did not run")], TOOL))) as Record<string, unknown>;
    expect(validate(matrix), JSON.stringify(validate.errors)).toBe(true);
    const tampered = structuredClone(matrix) as { sections: { rows: { cells: { status: string }[] }[] }[] };
    (tampered.sections[0]?.rows[0]?.cells[0] as { status: string }).status = "maybe";
    expect(validate(tampered)).toBe(false);
    expect(validate({ ...matrix, extra: 1 })).toBe(false);
  });
});

import { readFileSync } from "node:fs";
import { Parser, type FinalResults, type Result } from "tap-parser";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import { sourceUrl } from "../../src/core/clauses/sources.js";
import { countedFailures, summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, CountedLevel, RunReport } from "../../src/core/report/types.js";
import { renderTap } from "../../src/reporters/tap.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const agent = load("agent-cli-sample");
const incomplete = load("provider-incomplete-sample");
const HOSTILE = "<script>alert('pwned')</script> \u001b[31mred\u001b[0m ]]> & \"q\" 'a' \u0000\u0007 \ud800 \u2028 \u0085";
/** Text that could end a test point, open a directive or break a YAML block if it were written raw. */
const BREAKER = `${HOSTILE}\n  ...\nnot ok 99 - forged # SKIP\n  ---\nkey: value # comment\n- item\n\\`;

function crafted(level: CountedLevel = "must"): RunReport {
  const fail = (id: string, extra: Partial<ClauseResult> = {}): ClauseResult => ({
    id, level: "MUST", title: `title # TODO not really \\ ${BREAKER}`, status: "fail", judged: 1,
    findings: [0, 1, 2].map((n) => ({ clause: id, message: `broken ${n}: ${BREAKER}`, seen: BREAKER, expected: `{"a": 1} # x`, reproduce: `run '${BREAKER}'`,
      scenario: `scenario: ${BREAKER}`, requestId: "req-1", foundBy: "fuzz" as const, evidence: [{ stream: "stdout" as const, excerpt: BREAKER, line: 3, column: 7 }],
      wire: [{ t: 2, stream: "stdout" as const, text: BREAKER, highlight: true }] })),
    ...extra,
  });
  const clauses: ClauseResult[] = [
    { id: "provider/a/pass", level: "MUST", title: "passes # not a directive", status: "pass", judged: 1, findings: [] },
    fail("provider/a/counted"),
    fail("provider/a/expected", { expectation: "expected-failure" }),
    fail("provider/b/flaky", { expectation: "flaky" }),
    fail("provider/b/warning", { level: "SHOULD" }),
    { id: "provider/b/skip", level: "MUST", title: "skips", status: "skip", reason: `no # really ${BREAKER}`, judged: 0, findings: [] },
    { id: "provider/c/na", level: "MAY", title: "n/a", status: "not-applicable", reason: "never", judged: 0, findings: [] },
  ];
  return { ...provider, candidate: { argv: ["/bin/x", BREAKER] }, clauses, summary: summarize(clauses, 0, { level, stale: [`stale ${BREAKER}`] }) };
}

interface Parsed {
  results: FinalResults;
  asserts: Result[];
  extra: string[];
  comments: string[];
}

function parse(tap: string): Parsed {
  const parser = new Parser();
  const asserts: Result[] = [];
  const extra: string[] = [];
  const comments: string[] = [];
  let results: FinalResults | undefined;
  parser.on("assert", (result: Result) => asserts.push(result));
  parser.on("extra", (text: string) => extra.push(text));
  parser.on("comment", (text: string) => comments.push(text));
  parser.on("complete", (final: FinalResults) => (results = final));
  parser.end(tap);
  if (results === undefined) throw new Error("tap-parser did not complete");
  return { results, asserts, extra, comments };
}

const visible = (text: string): string =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const options = { color: false };

describe("renderTap", () => {
  it("is TAP version 14 with the plan up front", () => {
    const tap = renderTap(agent, options);
    expect(tap.split("\n").slice(0, 3)).toEqual(["TAP version 14", expect.stringMatching(/^# awp-conformance 0\.1\.0 · agent-cli \(stream-json\) · /), "1..45"]);
    expect(tap.trimEnd().split("\n").at(-1)).toBe("# verdict: not-conformant (counted level: must) — 45 clauses: 32 passed, 1 failed, 10 skipped, 2 not applicable");
  });

  it.each([
    ["provider sample", provider],
    ["agent-cli sample", agent],
    ["incomplete sample", incomplete],
    ["crafted report", crafted()],
    ["crafted report at --level all", crafted("all")],
  ])("counts of the %s match the JSON report, and nothing is left unparsed", (_, report) => {
    const { results, asserts, extra } = parse(renderTap(report, options));
    const s = report.summary;
    // Run points: an incomplete run, a run that judged nothing, stale entries.
    const run = Number(s.verdict === "incomplete") + Number(s.verdict === "nothing-judged") + Number(s.stale.length > 0);
    expect(extra).toEqual([]);
    expect(results.plan).toMatchObject({ start: 1, end: s.total + run });
    expect(asserts.map((a) => a.id)).toEqual(Array.from({ length: s.total + run }, (_, i) => i + 1));
    expect(results).toMatchObject({
      count: s.total + run,
      pass: s.passed + s.skipped + s.notApplicable,
      // tap-parser counts TODO points as failures too.
      fail: s.failed + s.warnings + s.expectedFailures + s.flaky + run,
      skip: s.skipped + s.notApplicable,
      todo: s.expectedFailures + s.flaky + s.warnings,
      ok: false,
    });
    expect(results.failures).toHaveLength(countedFailures(report.clauses, s.level).length + run);
    const names = asserts.slice(0, s.total).map((a) => a.name);
    expect(names).toEqual(report.clauses.map((c) => visible(`${c.id} — ${c.title}`).replace(/[\r\n\t]+/g, " ").trim()));
  });

  it("SKIP for skipped and not-applicable clauses, TODO for expected, flaky and uncounted failures", () => {
    const { asserts } = parse(renderTap(crafted(), options));
    const byId = (id: string): Result | undefined => asserts.find((a) => a.name.startsWith(id));
    expect(byId("provider/b/skip")).toMatchObject({ ok: true, skip: visible(`no # really ${BREAKER}`).replace(/[\r\n\t]+/g, " ").trim() });
    expect(byId("provider/c/na")).toMatchObject({ ok: true, skip: "not applicable: never" });
    expect(byId("provider/a/expected")).toMatchObject({ ok: false, todo: "expected failure" });
    expect(byId("provider/b/flaky")).toMatchObject({ ok: false, todo: "flaky" });
    expect(byId("provider/b/warning")).toMatchObject({ ok: false, todo: "warning: SHOULD failure not counted at --level must" });
    expect(byId("provider/a/counted")).toMatchObject({ ok: false, todo: false, skip: false });
    expect(byId("provider/a/pass")).toMatchObject({ ok: true, todo: false, skip: false, name: "provider/a/pass — passes # not a directive" });
  });

  it("failing points carry YAML diagnostics with message, severity, found, wanted, at, reproduce and foundBy", () => {
    const { asserts } = parse(renderTap(provider, options));
    const failing = provider.clauses.filter((c) => c.status === "fail");
    const catalogue = new Map(loadCatalogue("provider").map((c) => [c.id, c]));
    for (const clause of failing) {
      const diag = asserts.find((a) => a.name.startsWith(clause.id))?.diag as Record<string, unknown> | null | undefined;
      const finding = clause.findings[0];
      expect(diag).toMatchObject({
        message: finding?.message,
        severity: "must",
        found: visible(finding?.seen ?? ""),
        wanted: finding?.expected,
        at: { scenario: finding?.scenario, requestId: finding?.requestId, stream: "stdout", line: 1, column: 1 },
        reproduce: finding?.reproduce,
        foundBy: "scenario",
        findings: clause.findings.length,
        link: sourceUrl(catalogue.get(clause.id)!.source),
      });
      expect(diag?.others).toHaveLength(clause.findings.length - 1);
      expect((diag?.wire as string[] | undefined)?.length).toBe(finding?.wire?.length);
    }
    const passing = asserts.filter((a) => a.ok && !a.skip);
    expect(passing.every((a) => a.diag === null)).toBe(true);
  });

  it("hostile strings survive as data: they parse back, shown, without breaking the document", () => {
    const report = crafted();
    const tap = renderTap(report, options);
    expect(tap).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    const { asserts } = parse(tap);
    const diag = asserts[1]?.diag as Record<string, unknown> | null | undefined;
    expect(diag).toMatchObject({
      message: visible(`broken 0: ${BREAKER}`),
      severity: "must",
      found: visible(BREAKER),
      wanted: `{"a": 1} # x`,
      at: { scenario: visible(`scenario: ${BREAKER}`), requestId: "req-1", stream: "stdout", line: 3, column: 7 },
      reproduce: visible(`run '${BREAKER}'`),
      foundBy: "fuzz",
      evidence: [visible(`stdout (line 3, column 7): ${BREAKER}`)],
      wire: [visible(`> [2 ms] stdout: ${BREAKER}`)],
    });
    expect(diag?.others).toEqual([1, 2].map((n) => expect.objectContaining({ message: visible(`broken ${n}: ${BREAKER}`), found: visible(BREAKER) })));
    expect(asserts[2]?.diag).toMatchObject({ expectation: "expected-failure", found: visible(BREAKER) });
  });

  it("maxFindings bounds the other findings listed", () => {
    const diag = parse(renderTap(crafted(), { color: false, maxFindings: 2 })).asserts[1]?.diag as Record<string, unknown> | null | undefined;
    expect(diag?.others).toHaveLength(1);
    expect(diag?.notShown).toBe(1);
  });

  it("stale expected-failure entries are a final failing test point, counted in the plan", () => {
    const { results, asserts } = parse(renderTap(provider, options));
    const last = asserts.at(-1);
    expect(last).toMatchObject({ ok: false, id: provider.clauses.length + 1, name: "expected-failure entries are stale", todo: false, skip: false });
    expect(last?.diag).toMatchObject({ stale: provider.summary.stale, message: expect.stringContaining("no longer hold") });
    expect(results.plan.end).toBe(provider.clauses.length + 1);
    expect(parse(renderTap(agent, options)).asserts.some((a) => a.name.includes("stale"))).toBe(false);
  });

  it("a run that judged nothing fails the TAP run too", () => {
    const skipped: ClauseResult[] = [{ id: "provider/a/skip", level: "SHOULD", title: "skips", status: "skip", reason: "later", judged: 0, findings: [] }];
    for (const clauses of [[], skipped]) {
      const report: RunReport = { ...provider, clauses, summary: summarize(clauses, 0) };
      const { results, asserts } = parse(renderTap(report, options));
      expect(results).toMatchObject({ ok: false, count: clauses.length + 1, fail: 1 });
      expect(asserts.at(-1)).toMatchObject({ ok: false, name: "nothing was judged" });
    }
  });

  it("ends with a verdict comment", () => {
    const { comments } = parse(renderTap(provider, options));
    expect(comments.at(-1)).toBe(
      "# verdict: not-conformant (counted level: must) — 58 clauses: 55 passed, 1 failed, 1 expected failure, 1 skipped, 0 not applicable, 1 stale expected-failure entry\n",
    );
  });

  it("an incomplete run says so under the plan and fails the TAP run with a final point listing the reasons", () => {
    const tap = renderTap(incomplete, options);
    const groups = incomplete.summary.incomplete;
    const n = groups.reduce((sum, g) => sum + g.clauses.length, 0);
    expect(tap.split("\n").slice(2, 4 + groups.length)).toEqual([
      `1..${incomplete.clauses.length + 1}`,
      `# INCOMPLETE — ${n} MUST clauses could not be judged:`,
      ...groups.map((g) => `#   - ${g.reason}: ${g.clauses.join(", ")}`),
    ]);
    const { results, asserts, comments } = parse(tap);
    expect(results).toMatchObject({ ok: false, fail: 1 });
    const last = asserts.at(-1);
    expect(last).toMatchObject({ ok: false, id: incomplete.clauses.length + 1, name: "run incomplete", todo: false, skip: false });
    expect(last?.diag).toEqual({
      message: `${n} MUST clauses could not be judged: the run is not a pass until they are; add what each reason asks for`,
      severity: "must",
      incomplete: groups.map((g) => ({ reason: g.reason, clauses: g.clauses })),
    });
    // The skipped clauses themselves stay SKIP points with their reasons.
    for (const id of groups.flatMap((g) => g.clauses)) expect(asserts.find((a) => a.name.startsWith(id))).toMatchObject({ ok: true, skip: incomplete.clauses.find((c) => c.id === id)?.reason });
    expect(comments.at(-1)).toBe(`# verdict: incomplete (counted level: must) — 58 clauses: 27 passed, 0 failed, 19 skipped, 12 not applicable\n`);
  });

  it("a skipped SHOULD clause makes the run incomplete at --level should only", () => {
    const clauses: ClauseResult[] = [
      { id: "provider/a/pass", level: "MUST", title: "passes", status: "pass", judged: 1, findings: [] },
      { id: "provider/a/skip", level: "SHOULD", title: "skips", status: "skip", reason: "give --x", judged: 0, findings: [] },
    ];
    const at = (level: CountedLevel): Parsed => parse(renderTap({ ...provider, clauses, summary: summarize(clauses, 0, { level }) }, options));
    expect(at("must").results).toMatchObject({ ok: true, count: 2 });
    expect(at("should").results).toMatchObject({ ok: false, count: 3, fail: 1 });
    expect(at("should").asserts.at(-1)?.diag).toMatchObject({ incomplete: [{ reason: "give --x", clauses: ["provider/a/skip"] }] });
  });
});

import { readFileSync } from "node:fs";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, CountedLevel, Level, RunReport } from "../../src/core/report/types.js";
import { renderConsole, summaryLine } from "../../src/reporters/console.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const agent = load("agent-cli-sample");
const incomplete = load("provider-incomplete-sample");
const OPTIONS = { color: false };
/** --verbose: every clause, every reason. */
const VERBOSE = { color: false, verbose: true };

function result(id: string, level: Level, status: ClauseResult["status"], extra: Partial<ClauseResult> = {}): ClauseResult {
  return {
    id, level, title: `title of ${id}`, status, judged: status === "pass" || status === "fail" ? 1 : 0,
    findings: status === "fail" ? [{ clause: id, message: "wrong" }] : [],
    ...(status === "skip" || status === "not-applicable" ? { reason: "because" } : {}),
    ...extra,
  };
}

function withClauses(clauses: ClauseResult[], level: CountedLevel = "must", deselected = 0): RunReport {
  return { ...provider, clauses, summary: summarize(clauses, deselected, { level, stale: [] }) };
}

const many = (n: number, level: Level, status: ClauseResult["status"], prefix: string): ClauseResult[] =>
  Array.from({ length: n }, (_, i) => result(`provider/${prefix}/c${i}`, level, status));

describe("summaryLine", () => {
  it("counts every clause once: a SHOULD failure is a warning, not also a failure", () => {
    // The line from the issue read "38 passed, 4 failed, 3 not applicable, 1 warning", the warning being one of the 4.
    const report = withClauses([...many(38, "MUST", "pass", "p"), ...many(3, "MUST", "fail", "f"), ...many(1, "SHOULD", "fail", "w"), ...many(3, "MUST", "not-applicable", "n")]);
    expect(summaryLine(report)).toBe("45 clauses: 38 passed, 3 failed, 1 warning, 3 not applicable — not conformant (3 MUST clauses failed)");
  });

  it("names expected, flaky and deselected clauses, the last outside the total", () => {
    const clauses = [result("provider/a/p", "MUST", "pass"), result("provider/a/x", "MUST", "fail", { expectation: "expected-failure" }), result("provider/a/f", "MUST", "fail", { expectation: "flaky" })];
    expect(summaryLine(withClauses(clauses, "must", 5))).toBe("3 clauses: 1 passed, 0 failed, 1 expected failure, 1 flaky (5 deselected) — conformant");
  });

  it("says incomplete, with how many clauses of which levels could not be judged", () => {
    expect(summaryLine(incomplete)).toBe("58 clauses: 27 passed, 0 failed, 19 skipped, 12 not applicable — incomplete (4 MUST clauses could not be judged)");
    const clauses = [result("provider/a/p", "MUST", "pass"), result("provider/a/s", "SHOULD", "skip"), result("provider/a/m", "MUST", "skip")];
    expect(summaryLine(withClauses(clauses, "should"))).toMatch(/— incomplete \(1 MUST and 1 SHOULD clauses could not be judged\)$/);
  });

  const arb = fc.array(
    fc.record({
      level: fc.constantFrom<Level>("MUST", "SHOULD", "MAY"),
      status: fc.constantFrom<ClauseResult["status"]>("pass", "fail", "skip", "not-applicable"),
      expectation: fc.constantFrom<ClauseResult["expectation"] | undefined>(undefined, "expected-failure", "flaky"),
    }),
    { maxLength: 30 },
  );
  test.prop([arb, fc.constantFrom<CountedLevel>("must", "should", "all")], { numRuns: 200 })("the numbers before the verdict add up to the total", (specs, level) => {
    const clauses = specs.map((s, i) => result(`provider/x/c${i}`, s.level, s.status, s.expectation !== undefined ? { expectation: s.expectation } : {}));
    const line = summaryLine(withClauses(clauses, level));
    const [counts = ""] = line.split(" — ");
    const [total, parts = ""] = counts.split(": ");
    const sum = [...parts.matchAll(/(\d+) [a-z ]+/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(sum, line).toBe(Number(total?.split(" ")[0]));
    expect(Number(total?.split(" ")[0])).toBe(clauses.length);
  });
});

describe("renderConsole --verbose of an incomplete run", () => {
  const text = renderConsole(incomplete, VERBOSE);
  const lines = text.trimEnd().split("\n");
  const groups = incomplete.summary.incomplete;

  it("says so right after the header line, with each reason and its clause ids", () => {
    expect(lines[0]).toMatch(/^awp-conformance 0\.1\.0 · provider · \/home\/user\/project\/examples\/reference-provider\/provider\.mjs$/);
    expect(lines[1]).toBe("INCOMPLETE — 4 MUST clauses could not be judged; the run cannot be conformant until they are:");
    const block = lines.slice(2, 2 + 2 * groups.length);
    expect(block).toEqual(groups.flatMap((g, i) => [`  ${i + 1}. ${g.reason}`, `      ${g.clauses.join(", ")}`]));
  });

  it("ends with the summary line and then what to add to make the run complete", () => {
    const end = lines.slice(-(groups.length + 2));
    expect(end[0]).toBe(summaryLine(incomplete));
    expect(end[1]).toBe("To make the run complete:");
    expect(end.slice(2)).toEqual(groups.map((g) => `  - ${g.reason} (1 clause)`));
  });

  it("shows a shared reason once, with every clause it left unjudged", () => {
    const shared = "the CLI never called the kit's model fixture: point it at {{fixture.openai}}";
    const clauses = [result("agent-cli/a/p", "MUST", "pass"), ...["one", "two", "three"].map((x) => result(`agent-cli/input/${x}`, "MUST", "skip", { reason: shared }))];
    const out = renderConsole({ ...agent, clauses, summary: summarize(clauses, 0) }, VERBOSE);
    expect(out.split(`1. ${shared}`)).toHaveLength(2);
    // The clause lines point back to it instead of repeating it.
    expect(out.split(shared)).toHaveLength(3);
    expect(out).toContain("agent-cli/input/two  title of agent-cli/input/two — not judged: reason 1 of the INCOMPLETE list above");
    expect(out).toContain("      agent-cli/input/one, agent-cli/input/two, agent-cli/input/three\n");
    expect(out.trimEnd().endsWith(`To make the run complete:\n  - ${shared} (3 clauses)`)).toBe(true);
  });

  it("makes a candidate-written reason printable", () => {
    const clauses = [result("provider/a/p", "MUST", "pass"), result("provider/a/s", "MUST", "skip", { reason: "no \u001b[2Jway" })];
    const out = renderConsole(withClauses(clauses), OPTIONS);
    expect(out).not.toContain("\u001b");
    expect(out).toContain("no \\u001b[2Jway (1 clause)");
  });

  it("colours counted skips yellow and leaves the others dim", () => {
    const clauses = [result("provider/a/p", "MUST", "pass"), result("provider/a/s", "MUST", "skip"), result("provider/a/t", "SHOULD", "skip")];
    const out = renderConsole(withClauses(clauses), { color: true, verbose: true });
    expect(out).toContain("\u001b[33mSKIP \u001b[39m MUST   provider/a/s");
    expect(out).toContain("\u001b[2mSKIP \u001b[22m SHOULD provider/a/t");
  });
});

describe("renderConsole --verbose of other verdicts", () => {
  it("a failed run with skipped MUST clauses has no INCOMPLETE block but still ends with what to add", () => {
    const lines = renderConsole(agent, VERBOSE).trimEnd().split("\n");
    expect(lines[1]).not.toMatch(/^INCOMPLETE/);
    const at = lines.indexOf("To make the run complete:");
    expect(lines[at - 1]).toMatch(/— not conformant \(1 MUST clause failed\)$/);
    expect(lines.slice(at + 1)).toEqual(agent.summary.incomplete.map((g) => `  - ${g.reason} (${g.clauses.length} clause${g.clauses.length === 1 ? "" : "s"})`));
  });

  it("a complete run ends with its summary line", () => {
    const report = withClauses([result("provider/a/p", "MUST", "pass"), result("provider/a/s", "SHOULD", "skip")]);
    const out = renderConsole(report, OPTIONS);
    expect(out.endsWith("2 clauses: 1 passed, 0 failed, 1 skipped — conformant\n")).toBe(true);
    expect(out).not.toContain("INCOMPLETE");
    expect(out).not.toContain("To make the run complete");
  });
});

describe("renderConsole of a run that stopped early", () => {
  it("says why first, right under the header, and its skips point back to it", () => {
    const halted = "the CLI never answered a turn: it wrote nothing on stdout";
    const clauses = [result("agent-cli/a/f", "MUST", "fail"), result("agent-cli/a/s", "MUST", "skip", { reason: halted }), result("agent-cli/a/t", "SHOULD", "skip", { reason: halted })];
    const lines = renderConsole({ ...withClauses(clauses), halted }, VERBOSE).split("\n");
    expect(lines[1]).toBe(`STOPPED EARLY — ${halted}`);
    expect(lines.filter((l) => l.endsWith("— not judged: see STOPPED EARLY above"))).toHaveLength(2);
    // An incomplete run shows the reasons above as well, numbered.
    const skipsOnly = renderConsole({ ...withClauses(clauses.slice(1)), halted }, VERBOSE).split("\n");
    expect(skipsOnly[1]).toBe(`STOPPED EARLY — ${halted}`);
    expect(skipsOnly[2]).toMatch(/^INCOMPLETE — /);
  });
});

describe("renderConsole by default (no --verbose)", () => {
  const passing = withClauses([...many(40, "MUST", "pass", "p"), result("provider/a/f", "MUST", "fail"), result("provider/a/w", "SHOULD", "fail"), result("provider/a/s", "SHOULD", "skip"), result("provider/a/n", "MUST", "not-applicable")]);

  it("prints failures and warnings, not the PASS, SKIP and N/A lines, and says --verbose lists them", () => {
    const out = renderConsole(passing, OPTIONS);
    expect(out).toMatch(/^FAIL  MUST   provider\/a\/f /m);
    expect(out).toMatch(/^WARN  SHOULD provider\/a\/w /m);
    expect(out).not.toMatch(/^(PASS|SKIP|N\/A) /m);
    expect(out).toContain("(--verbose lists the 40 passed and 2 skipped or not applicable clauses too)");
    expect(out.trimEnd().split("\n").at(-1)).toBe(summaryLine(passing));
    // --verbose: one line per clause.
    const verbose = renderConsole(passing, VERBOSE);
    expect(verbose.match(/^PASS /gm)).toHaveLength(40);
    expect(verbose).toMatch(/^SKIP  SHOULD provider\/a\/s /m);
    expect(verbose).toMatch(/^N\/A   MUST   provider\/a\/n /m);
    expect(verbose).not.toContain("--verbose lists");
  });

  it("prints an expected failure on one line, its first finding's message, without its evidence", () => {
    const out = renderConsole(provider, OPTIONS);
    const xfail = provider.clauses.find((c) => c.expectation === "expected-failure");
    expect(xfail).toBeDefined();
    const lines = out.split("\n");
    const at = lines.findIndex((l) => l.startsWith("XFAIL "));
    expect(lines[at]).toBe(`XFAIL MUST   ${xfail?.id} — ${xfail?.findings[0]?.message} (and ${(xfail?.findings.length ?? 1) - 1} more)`);
    expect(lines[at + 1]).not.toMatch(/^ {6}/);
    // The counted failure keeps its evidence.
    expect(out).toContain("        expected: diagnostics on stderr only");
  });

  it("condenses an incomplete run's reasons: the first three above, a count, and one line at the end", () => {
    const reasons = Array.from({ length: 18 }, (_, i) => `reason number ${i + 1}`);
    const clauses = [result("agent-cli/a/p", "MUST", "pass"), ...reasons.map((reason, i) => result(`agent-cli/s/c${i}`, "MUST", "skip", { reason }))];
    const report = { ...agent, clauses, summary: summarize(clauses, 0) };
    const lines = renderConsole(report, OPTIONS).trimEnd().split("\n");
    expect(lines.slice(1, 6)).toEqual([
      "INCOMPLETE — 18 MUST clauses could not be judged; the run cannot be conformant until they are:",
      "  1. reason number 1 (1 clause)",
      "  2. reason number 2 (1 clause)",
      "  3. reason number 3 (1 clause)",
      "  … and 15 more reasons: --verbose lists every reason with its clauses",
    ]);
    expect(lines.filter((l) => l.startsWith("SKIP"))).toEqual([]);
    expect(lines.at(-1)).toBe("To make the run complete: 18 reasons left 18 MUST clauses unjudged (--verbose lists them, as do the markdown and html reports)");
    expect(lines.length).toBeLessThan(10);
    const verbose = renderConsole(report, VERBOSE);
    for (const reason of reasons) expect(verbose).toContain(`  - ${reason} (1 clause)`);
  });

  it("a failed run with unjudged MUST clauses ends with their count", () => {
    const lines = renderConsole(agent, OPTIONS).trimEnd().split("\n");
    expect(lines.at(-2)).toBe(summaryLine(agent));
    expect(lines.at(-1)).toBe(`To make the run complete: ${agent.summary.incomplete.length} reasons left 7 MUST clauses unjudged (--verbose lists them, as do the markdown and html reports)`);
  });
});

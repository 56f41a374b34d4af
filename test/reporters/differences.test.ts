/** The differential section of a report (fuzz --against): schema, exit code, and each format. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { differentialExitCode } from "../../src/core/report/differential.js";
import type { DifferentialSummary, RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";
import { renderConsole } from "../../src/reporters/console.js";
import { renderHtml } from "../../src/reporters/html.js";
import { renderJunit } from "../../src/reporters/junit.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";

const sample = JSON.parse(readFileSync(new URL("../fixtures/reports/provider-sample.json", import.meta.url), "utf8")) as RunReport;
const differential: DifferentialSummary = {
  against: ["./other", "--fault", "x"],
  cases: 20,
  calls: 61,
  againstFailed: [],
  differences: [
    {
      id: "provider/differential/invoke-effects",
      aspects: ["effects"],
      request: { label: "check tool.before [block]: native_name <b>\"example_tool\"</b> | from the config", purpose: "invoke", requestId: "fuzz-7", text: '{"method":"invoke"}' },
      seed: 1,
      path: "17:1",
      shrunk: true,
      candidate: { answer: "ok (effects [block])", clauses: [] },
      against: { answer: "ok (effects [])", clauses: [] },
      supports: "both",
      why: "neither answer fails a clause: the two policies decide differently, each within the contract",
      file: "reports/replays/provider_differential_invoke-effects-1.json",
      reproduce: "awp-conformance replay reports/replays/provider_differential_invoke-effects-1.json --against ./other ./candidate",
    },
  ],
};
const report: RunReport = { ...sample, differential };
const none: RunReport = { ...sample, differential: { ...differential, differences: [] } };

describe("the differential section of a report", () => {
  it("is valid against report.schema.json, and a malformed one is not", () => {
    const validate = kitSchema("report.schema.json");
    expect(validate(report)).toBe(true);
    expect(validate(none)).toBe(true);
    const bad = (change: object): boolean => validate({ ...report, differential: { ...differential, differences: [{ ...differential.differences[0], ...change }] } });
    expect(bad({ supports: "maybe" })).toBe(false);
    expect(bad({ aspects: ["timing"] })).toBe(false);
    expect(bad({ id: "provider/transport/x" })).toBe(false);
  });

  it("makes the exit code 1 when the providers differ, whatever the candidate's verdict; usage and kit errors keep theirs", () => {
    expect([0, 1, 4].map((code) => differentialExitCode(code, report))).toEqual([1, 1, 1]);
    expect([2, 3].map((code) => differentialExitCode(code, report))).toEqual([2, 3]);
    expect([0, 1, 4].map((code) => differentialExitCode(code, none))).toEqual([0, 1, 4]);
    expect(differentialExitCode(0, sample)).toBe(0);
  });

  it("is printed on the console with both answers, who the contract supports and the replay command", () => {
    const text = renderConsole(report, { color: false });
    expect(text).toContain("differences against ./other --fault x: 1 in 20 cases (61 calls to both sides)\n  DIFFERS differ in effects on check tool.before [block]");
    expect(text).toContain("    candidate: ok (effects [block])\n    against:   ok (effects [])\n    both allowed by the contract: neither answer fails a clause");
    expect(text).toContain("    replay: awp-conformance replay reports/replays/provider_differential_invoke-effects-1.json --against ./other ./candidate");
    expect(renderConsole(sample, { color: false })).not.toContain("differences against");
  });

  it("is a Markdown table and an HTML list, report text escaped; a JUnit failure per difference", () => {
    const md = renderMarkdown(report, { color: false });
    expect(md).toContain("### Differences between the two providers");
    expect(md).toContain("| effects | check tool.before \\[block\\]: native\\_name &lt;b&gt;\"example\\_tool\"&lt;/b&gt; \\| from the config |");
    const html = renderHtml(report, { color: false });
    expect(html).toContain('<section class="box" id="differences"><h2>Differences against ./other --fault x</h2>');
    expect(html).toContain("native_name &lt;b&gt;");
    expect(html).not.toContain("<b>\"example_tool\"</b>");
    const xml = renderJunit(report, { color: false });
    expect(xml).toMatch(/<testcase classname="run" name="differs from \.\/other --fault x: provider\/differential\/invoke-effects" time="0">\s*<failure message="differ in effects on check tool.before \[block\]: native_name &lt;b&gt;/);
    expect(renderJunit(none, { color: false })).not.toContain("differs from");
  });
});

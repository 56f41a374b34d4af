/** The report's fuzz section: valid against the schema, and rendered on the console and in Markdown. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FuzzSummary, RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";
import { renderConsole } from "../../src/reporters/console.js";
import { consoleFuzzLines, fuzzHeadline } from "../../src/reporters/fuzz-coverage.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";
import { makeStyle } from "../../src/reporters/style.js";

const sample = JSON.parse(readFileSync(new URL("../fixtures/reports/provider-sample.json", import.meta.url), "utf8")) as RunReport;
const fuzz: FuzzSummary = {
  seed: 42,
  cases: 3,
  calls: 7,
  failures: 1,
  unit: "request",
  kinds: [{ name: "valid", count: 2 }, { name: "hostile:duplicate-keys", count: 1 }, { name: "hostile:oversized-request", count: 0 }],
  sizes: [{ name: "request size", of: "requests", buckets: [{ name: "< 1 KiB", count: 2 }, { name: "over 1 MiB", count: 1 }, { name: "the last 4 KiB to 1 MiB", count: 0 }] }],
};
const report: RunReport = { ...sample, fuzz };

describe("the fuzz section of a report", () => {
  it("is valid against report.schema.json, and a malformed one is not", () => {
    const validate = kitSchema("report.schema.json");
    expect(validate(report)).toBe(true);
    expect(validate({ ...report, fuzz: { ...fuzz, unit: "case" } })).toBe(false);
    expect(validate({ ...report, fuzz: { ...fuzz, sizes: [{ name: "x", of: "requests", buckets: [] }] } })).toBe(false);
    expect(validate({ ...report, fuzz: { ...fuzz, kinds: [{ name: "valid", count: -1 }] } })).toBe(false);
  });

  it("is printed on the console before the summary line, empty buckets included", () => {
    const text = renderConsole(report, { color: false });
    const lines = text.trimEnd().split("\n");
    const at = lines.findIndex((l) => l.startsWith("fuzz coverage: "));
    expect(lines[at]).toBe("fuzz coverage: 3 requests, seed 42 (7 candidate calls with shrinking, 1 failure with a replay file)");
    expect(lines[at + 1]).toBe("  kinds: valid: 2 · hostile:duplicate-keys: 1 · hostile:oversized-request: 0");
    expect(lines[at + 2]).toBe("  request size, requests: < 1 KiB: 2 · over 1 MiB: 1 · the last 4 KiB to 1 MiB: 0");
    expect(at).toBeLessThan(lines.length - 1);
    expect(renderConsole(sample, { color: false })).not.toContain("fuzz coverage");
    expect(consoleFuzzLines(sample, makeStyle(false))).toEqual([]);
  });

  it("names sessions for agent-cli campaigns", () => {
    expect(fuzzHeadline({ ...fuzz, unit: "session", cases: 1, calls: 1, failures: 0 })).toBe("1 session, seed 42 (1 session with shrinking, 0 failures with a replay file)");
  });

  it("is a short Markdown table, with report text escaped", () => {
    const md = renderMarkdown({ ...report, fuzz: { ...fuzz, kinds: [{ name: "a|b <i>", count: 1 }] } }, { color: false });
    expect(md).toContain("### Fuzz coverage");
    expect(md).toContain("| request size | requests | &lt; 1 KiB: 2 · over 1 MiB: 1 · the last 4 KiB to 1 MiB: 0 |");
    expect(md).toContain("a\\|b &lt;i&gt;: 1");
    expect(renderMarkdown(sample, { color: false })).not.toContain("Fuzz coverage");
  });
});

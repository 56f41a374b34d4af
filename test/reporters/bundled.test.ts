import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { RunReport } from "../../src/core/report/types.js";
import { kitSchema } from "../../src/core/schema.js";
import { badgeContent } from "../../src/reporters/badge.js";
import { renderConsole } from "../../src/reporters/console.js";
import { renderHtml } from "../../src/reporters/html.js";
import { renderJunit } from "../../src/reporters/junit.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";
import { renderTap } from "../../src/reporters/tap.js";

/** A report of one of the kit's own examples says so in every format's title; a user's candidate's does not. */

const sample = JSON.parse(readFileSync(new URL("../fixtures/reports/provider-sample.json", import.meta.url), "utf8")) as RunReport;
const bundled: RunReport = { ...sample, candidate: { ...sample.candidate, bundled: "reference-provider" } };
const OPTIONS = { color: false };
const LABEL = "bundled example reference-provider";

const firstLine = (text: string): string => text.split("\n")[0] ?? "";
const suiteNames = (xml: string): string[] => [...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((m) => m[1] ?? "");

describe("reports of the bundled examples", () => {
  it("are valid reports", () => {
    expect(kitSchema("report.schema.json")(bundled)).toBe(true);
  });

  it("name the example in the console title, the HTML title and heading, the Markdown heading and the TAP header", () => {
    expect(firstLine(renderConsole(bundled, OPTIONS))).toMatch(new RegExp(`^awp-conformance \\S+ · ${LABEL} · provider · `));
    const html = renderHtml(bundled, OPTIONS);
    expect(html).toMatch(new RegExp(`<title>awp-conformance · ${LABEL} · provider · `));
    expect(html).toContain(`<h1>Conformance report · ${LABEL} · provider</h1>`);
    expect(firstLine(renderMarkdown(bundled, OPTIONS))).toMatch(new RegExp(`^## .+: ${LABEL} · provider$`));
    expect(renderTap(bundled, OPTIONS).split("\n")[1]).toMatch(new RegExp(`^# awp-conformance \\S+ · ${LABEL} · provider · `));
  });

  it("label the badge as the bundled example, and name it in every JUnit suite", () => {
    expect(badgeContent(bundled).label).toBe(`aw-provider · ${LABEL}`);
    const xml = renderJunit(bundled, OPTIONS);
    expect(xml).toContain(`<testsuites name="awp-conformance: ${LABEL} provider"`);
    const names = suiteNames(xml);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect(name.startsWith(`${LABEL}: `)).toBe(true);
    expect(xml).toContain('<property name="candidate.bundled" value="reference-provider"/>');
  });

  it("a user's candidate's report says none of it", () => {
    const outputs = [renderConsole(sample, OPTIONS), renderHtml(sample, OPTIONS), renderMarkdown(sample, OPTIONS), renderTap(sample, OPTIONS), renderJunit(sample, OPTIONS)];
    for (const output of outputs) expect(output).not.toContain("bundled example");
    expect(badgeContent(sample).label).toBe("aw-provider");
  });

  it("a hand-edited name never reaches a title as it is", () => {
    const edited = { ...sample, candidate: { ...sample.candidate, bundled: "<b>x</b>" } } as RunReport;
    expect(renderHtml(edited, OPTIONS)).toContain("<h1>Conformance report · bundled example · provider</h1>");
  });
});

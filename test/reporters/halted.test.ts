/** A run that stopped early says why at the top of every human-readable report, escaped like any candidate text. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { kitSchema } from "../../src/core/schema.js";
import type { RunReport } from "../../src/core/report/types.js";
import { renderHtml } from "../../src/reporters/html.js";
import { renderMarkdown } from "../../src/reporters/markdown.js";

const sample = JSON.parse(readFileSync(new URL("../fixtures/reports/agent-cli-sample.json", import.meta.url), "utf8")) as RunReport;
const halted = 'the CLI never answered a turn: it wrote 9 characters on stdout and never a line break, starting "<script>x"; stderr says: **boom** [link](http://example.com)';
const report: RunReport = { ...sample, halted };

describe("halted", () => {
  it("is valid report.json", () => {
    const validate = kitSchema("report.schema.json");
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...sample, halted: 3 })).toBe(false);
  });

  it("leads the Markdown report, escaped", () => {
    const lines = renderMarkdown(report, { color: false }).split("\n");
    expect(lines[2]).toMatch(/^> \*\*Stopped early:\*\* the CLI never answered a turn: /);
    expect(lines[2]).not.toContain("**boom**");
    expect(lines[2]).not.toContain("](http://");
  });

  it("is a box right under the verdict in the HTML report, escaped", () => {
    const html = renderHtml(report, { color: false });
    const box = html.indexOf('id="halted"');
    expect(box).toBeGreaterThan(html.indexOf('class="verdict'));
    expect(html).toContain("starting &quot;&lt;script&gt;x&quot;");
    expect(html).not.toContain('"<script>x"');
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { countedFailures, summarize } from "../../src/core/report/judge.js";
import type { ClauseResult, CountedLevel, Level, RunReport } from "../../src/core/report/types.js";
import { escapeMarkdown, escapeMarkdownBlock, renderMarkdown } from "../../src/reporters/markdown.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const provider = load("provider-sample");
const agent = load("agent-cli-sample");
const incomplete = load("provider-incomplete-sample");
const OPTIONS = { color: false, docsUrl: "https://example.org/docs/clauses.md" };

const HOSTILE =
  "<script>alert(1)</script> <img src=x onerror=alert(1)> [click](https://evil.example/a) ![pixel](https://evil.example/p.png) " +
  "a|b `code` **bold** _em_ ~~del~~ $x$ &amp; \u001b[31mred\u0000\u0007 \u202eevil\u2028 @someone www.evil.example https://evil.example #12\n## injected heading\n| a | b |\r\n- item";

/** A report through the kit's own summary, with hostile text wherever the candidate could put it. */
function crafted(options: { level?: CountedLevel; failures?: number; stale?: string[] } = {}): RunReport {
  const fail = (id: string, extra: Partial<ClauseResult> = {}): ClauseResult => ({
    id, level: "MUST", title: `title ${HOSTILE}`, status: "fail", judged: 1,
    findings: [{ clause: id, message: `broken ${HOSTILE}`, seen: HOSTILE, foundBy: "fuzz" }, { clause: id, message: "second" }],
    ...extra,
  });
  const clauses: ClauseResult[] = [
    { id: "provider/a/pass", level: "MUST", title: "passes", status: "pass", judged: 1, findings: [] },
    fail("provider/b/flaky", { expectation: "flaky" }),
    fail("provider/b/warning", { level: "SHOULD" }),
    fail("provider/a/expected", { expectation: "expected-failure" }),
    fail("provider/a/counted"),
    { id: "provider/b/skip", level: "MUST", title: "skips", status: "skip", reason: `no ${HOSTILE}`, judged: 0, findings: [] },
    ...Array.from({ length: options.failures ?? 0 }, (_, i) => fail(`provider/many/f${i}`)),
  ];
  const summary = summarize(clauses, 0, { level: options.level ?? "must", stale: options.stale ?? [`x.txt:1: ${HOSTILE}`] });
  return { ...provider, candidate: { argv: [`/tmp/${HOSTILE}`] }, notes: [`note ${HOSTILE}`], clauses, summary };
}

function tableRows(markdown: string, header: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.startsWith(header));
  expect(start, `table ${header}`).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line);
  }
  return rows;
}

/** Cells of a table row, split where GitHub splits them: at pipes not escaped by a backslash. */
function cells(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
}

describe("renderMarkdown on the sample reports", () => {
  for (const report of [provider, agent]) {
    const md = renderMarkdown(report, OPTIONS);

    it(`${report.protocol}: heads with the verdict, protocol, mode, candidate and kit version`, () => {
      const first = md.split("\n")[0] ?? "";
      expect(first).toMatch(/^## ❌ Not conformant: /);
      expect(first).toContain(report.protocol);
      if (report.mode !== undefined) expect(first).toContain(report.mode);
      expect(md).toContain(`**Kit:** awp-conformance ${report.tool.version}`);
      expect(md).toContain("**Candidate:**");
    });

    it(`${report.protocol}: counts per level match the summary, and every row adds up to its total`, () => {
      expect(md).toContain("| Level | Passed | Failed | Warnings | Expected | Flaky | Skipped | Not applicable | Total |");
      const rows = tableRows(md, "| Level |").map(cells);
      const buckets = ["passed", "failed", "warnings", "expectedFailures", "flaky", "skipped", "notApplicable"] as const;
      for (const level of ["MUST", "SHOULD", "MAY"] as Level[]) {
        const row = rows.find((r) => r[0] === level)?.slice(1).map(Number) ?? [];
        const want = report.summary.byLevel[level];
        const total = report.clauses.filter((c) => c.level === level).length;
        expect(row, level).toEqual([...buckets.map((b) => want[b]), total]);
        expect(row.slice(0, -1).reduce((a, b) => a + b, 0), level).toBe(total);
      }
      const all = rows.find((r) => r[0] === "**All**");
      expect(all?.slice(1)).toEqual([...buckets.map((b) => report.summary[b]), report.summary.total].map((n) => `**${n}**`));
    });

    it(`${report.protocol}: lists every failure, counted ones first, linked to the clause docs`, () => {
      const rows = tableRows(md, "| | Level |").map(cells);
      const failing = report.clauses.filter((c) => c.status === "fail");
      expect(rows).toHaveLength(failing.length);
      const counted = new Set(countedFailures(report.clauses, report.summary.level).map((c) => c.id));
      for (const clause of failing) {
        const row = rows.find((r) => r[2]?.includes(clause.id));
        expect(row, clause.id).toBeDefined();
        expect(row?.[2]).toBe(`[${clause.id}](https://example.org/docs/clauses.md#${clause.id.replace(/\//g, "-")})`);
        expect(row?.[4]).toContain(escapeMarkdown(clause.findings[0]?.message ?? "", 200));
        if (counted.has(clause.id)) expect(row?.[0]).toContain("fails the run");
      }
      const kinds = rows.map((r) => r[0]);
      expect(kinds.indexOf("expected failure") === -1 || kinds.lastIndexOf("❌ fails the run") < kinds.indexOf("expected failure")).toBe(true);
    });
  }

  it("provider: labels the expected failure and lists the stale entry, which fails the run", () => {
    const md = renderMarkdown(provider, OPTIONS);
    const row = tableRows(md, "| | Level |").map(cells).find((r) => r[2]?.includes("echoes-request-id"));
    expect(row?.[0]).toBe("expected failure");
    expect(md).toContain("1 expected failure (`--expected-failures`)");
    expect(md).toContain("stale expectation, which fails the run");
    expect(md).toContain("no-such-clause matches no clause of this run");
  });

  it("provider: the sample's hostile candidate output arrives escaped", () => {
    const md = renderMarkdown(provider, OPTIONS);
    expect(md).not.toMatch(/<script|<img|<\/?b>|<\/pre>/i);
    expect(md).toContain("&lt;script&gt;alert\\('pwned'\\)&lt;/script&gt;");
    expect(md).toContain("/opt/adapters/&lt;b&gt;provider&lt;/b&gt;");
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it("agent-cli: skipped MUST clauses are listed by reason, also when the run failed anyway", () => {
    const md = renderMarkdown(agent, OPTIONS);
    expect(md).toContain("### Could not be judged");
    expect(md).toContain("MUST clauses could not be judged as well:");
    expect(md).toContain("- the sigterm-idle scenario did not run — `agent-cli/termination/sigterm-idle`");
    expect(md).not.toContain("Incomplete");
  });
});

describe("renderMarkdown on hostile text", () => {
  const md = renderMarkdown(crafted(), OPTIONS);

  it("lets no markup, link, image or control character through", () => {
    expect(md).not.toMatch(/<script|<img|<\/?[a-z]/i);
    expect(md).not.toContain("](https://evil");
    expect(md).not.toContain("[click](");
    expect(md).not.toContain("![");
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e\u2028]/);
    expect(md).not.toMatch(/^#+ injected/m);
    expect(md).not.toMatch(/^\| a \| b \|/m);
    expect(md).not.toContain("https://evil");
    expect(md).not.toContain("@someone");
    expect(md).toContain("\\\\u001b");
    expect(md).toContain("&lt;img src=x onerror=alert\\(1\\)&gt;");
  });

  it("keeps every failure row at seven cells", () => {
    const rows = tableRows(md, "| | Level |");
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(cells(row)).toHaveLength(7);
  });

  it("orders counted failures, then warnings, expected and flaky ones, each labelled", () => {
    const rows = tableRows(md, "| | Level |").map(cells);
    expect(rows.map((r) => r[0])).toEqual(["❌ fails the run", "⚠️ warning", "expected failure", "flaky"]);
    expect(rows[0]?.[2]).toContain("provider/a/counted");
    expect(rows[0]?.[4]).toContain("(+1 more)");
    expect(rows[0]?.[6]).toBe("fuzzing, scenario");
  });

  it("reports warnings, expected, flaky and stale entries", () => {
    expect(md).toContain("1 warning: failures of levels that do not count at `--level must`");
    expect(md).toContain("1 flaky failure");
    expect(md).toContain("1 stale expectation, which fails the run");
  });

  it("stays bounded: at most 50 failure rows, then how many more", () => {
    const big = renderMarkdown(crafted({ failures: 60 }), OPTIONS);
    expect(tableRows(big, "| | Level |")).toHaveLength(50);
    expect(big).toContain("… and 14 more failing clauses in report.json.");
    expect(big.length).toBeLessThan(100_000);
  });

  it("links to a safe docs URL only", () => {
    const evil = renderMarkdown(crafted(), { color: false, docsUrl: "javascript:alert(1)" });
    expect(evil).not.toContain("javascript:");
    const relative = renderMarkdown(crafted(), { color: false, docsUrl: "docs/clauses.md" });
    expect(relative).toContain("[provider/a/counted](docs/clauses.md#provider-a-counted)");
    // Without --docs-url: a clause of the kit's catalogue links to its public source, any other id to nothing.
    const plain = renderMarkdown(crafted(), { color: false });
    expect(plain).toContain("| provider/a/counted |");
    expect(plain).not.toContain("docs/clauses.md");
  });
});

describe("renderMarkdown verdicts", () => {
  it("says conformant when no counted failure stands", () => {
    // Expected failures do not count; the clauses skipped in the sample are left out (as --skip would).
    const clauses = agent.clauses.filter((c) => c.status !== "skip").map((c) => (c.status === "fail" ? { ...c, expectation: "expected-failure" as const } : c));
    const md = renderMarkdown({ ...agent, clauses, summary: summarize(clauses, 0) }, OPTIONS);
    expect(md.split("\n")[0]).toBe("## ✅ Conformant: agent-cli (stream-json)");
    expect(md).not.toContain("### Could not be judged");
  });

  it("says nothing was judged for a vacuous run", () => {
    const clauses = agent.clauses.map((c) => ({ ...c, status: "not-applicable" as const, findings: [], reason: "never arose" }));
    const md = renderMarkdown({ ...agent, clauses, summary: summarize(clauses, 0) }, OPTIONS);
    expect(md.split("\n")[0]).toMatch(/^## ❌ Nothing was judged \(not a pass\)/);
    expect(md).not.toContain("### Failures");
  });
});

describe("renderMarkdown on an incomplete run", () => {
  const md = renderMarkdown(incomplete, OPTIONS);
  const groups = incomplete.summary.incomplete;
  const n = groups.reduce((sum, g) => sum + g.clauses.length, 0);

  it("says so in the heading and in a line right under it", () => {
    const lines = md.split("\n");
    expect(lines[0]).toBe("## ⏸️ Incomplete (not a pass): provider");
    expect(lines[2]).toBe(`> **${n} MUST clauses could not be judged**: this run is not a pass until they are. [What to add](#could-not-be-judged) is listed below.`);
    expect(md).toContain(`; 0 counted failures, ${n} counted clauses not judged, 0 stale expectations`);
  });

  it("lists what to add, one item per reason with its clauses, in the summary", () => {
    const section = md.slice(md.indexOf("### Could not be judged"));
    expect(section).toContain(`${n} MUST clauses could not be judged: the run is incomplete. To make it complete:`);
    for (const g of groups) expect(section).toContain(`- ${escapeMarkdownBlock(g.reason)} — ${g.clauses.map((id) => `\`${id}\``).join(", ")}\n`);
    expect(md).not.toContain("### Failures");
  });

  it("groups a shared reason once, and escapes it", () => {
    const shared = `point the CLI at {{fixture.openai}} ${HOSTILE}`;
    const clauses: ClauseResult[] = ["a", "b", "c"].map((x) => ({ id: `agent-cli/input/${x}`, level: "MUST", title: x, status: "skip", reason: shared, judged: 0, findings: [] }));
    const report: RunReport = { ...agent, clauses, summary: summarize(clauses, 0) };
    const text = renderMarkdown(report, OPTIONS);
    expect(text.split(escapeMarkdownBlock(shared)).length - 1).toBe(1);
    expect(text).toContain("— `agent-cli/input/a`, `agent-cli/input/b`, `agent-cli/input/c`");
    expect(text).not.toMatch(/<script|<img|^## injected/im);
  });
});

describe("escapeMarkdown", () => {
  it("escapes table, code, emphasis, link and HTML syntax", () => {
    expect(escapeMarkdown("a|b`c*d_e[f](g)<h>&i")).toBe("a\\|b\\`c\\*d\\_e\\[f\\]\\(g\\)&lt;h&gt;&amp;i");
  });
  it("shows line breaks and controls as visible escapes", () => {
    expect(escapeMarkdown("a\nb\r\tc\u001b")).toBe("a\\\\nb\\\\r\\\\tc\\\\u001b");
  });
  it("escapes what would start a block at the start of a list item", () => {
    expect(escapeMarkdownBlock("- x")).toBe("\\- x");
    expect(escapeMarkdownBlock("--- x")).toBe("\\--- x");
    expect(escapeMarkdownBlock("1. x")).toBe("1\\. x");
    expect(escapeMarkdownBlock("# x")).toBe("\\# x");
    expect(escapeMarkdown("0.1.0")).toBe("0.1.0");
  });
  it("truncates long text", () => {
    expect(escapeMarkdown("x".repeat(500), 10)).toBe(`${"x".repeat(10)}…`);
  });
});

describe("renderMarkdown of a tampered verdict", () => {
  it("reads an unknown verdict as not conformant, never as an inherited property", () => {
    for (const verdict of ["constructor", "toString", "mostly-conformant"]) {
      const md = renderMarkdown({ ...agent, summary: { ...agent.summary, verdict: verdict as RunReport["summary"]["verdict"] } }, OPTIONS);
      expect(md.split("\n")[0], verdict).toBe("## ❌ Not conformant: agent-cli (stream-json)");
    }
  });
});

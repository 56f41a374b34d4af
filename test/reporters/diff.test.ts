/**
 * The diff's console and Markdown renderings: a headline, one line per change (regressions
 * first), nothing per unchanged clause, escaping of what the reports hold.
 */
import { describe, expect, it } from "vitest";
import type { ClauseResult } from "../../src/core/report/types.js";
import { diffReports } from "../../src/core/report/diff-compare.js";
import { renderDiffConsole } from "../../src/reporters/diff-console.js";
import { renderDiffJson, renderDiffMarkdown } from "../../src/reporters/diff-markdown.js";
import { reportOf } from "../core/report/report-of.js";

const result = (name: string, status: ClauseResult["status"], extra: Partial<ClauseResult> = {}): ClauseResult => ({
  id: `provider/area/${name}`,
  level: "MUST",
  title: `${name} holds`,
  status,
  judged: status === "pass" || status === "fail" ? 1 : 0,
  findings: status === "fail" ? [{ clause: `provider/area/${name}`, message: `${name} broke` }] : [],
  ...(status === "skip" || status === "not-applicable" ? { reason: `${name} was not run` } : {}),
  ...extra,
});

const older = reportOf([result("same", "pass"), result("worse", "pass"), result("better", "fail"), result("better2", "fail"), result("warn", "pass", { level: "SHOULD" }), result("gone", "skip")]);
const newer = reportOf([result("same", "pass"), result("worse", "fail"), result("better", "pass"), result("better2", "pass"), result("warn", "fail", { level: "SHOULD" }), result("gone", "not-applicable")]);
const diff = diffReports(older, newer, { files: { old: "main/report.json", new: "pr/report.json" } });

describe("console", () => {
  const text = renderDiffConsole(diff, { color: false });
  const lines = text.trimEnd().split("\n");

  it("says the headline, then one line per change, counted regressions first, and the verdict last", () => {
    expect(lines[1]).toBe("OLD main/report.json (kit 0, not-conformant) → NEW pr/report.json (kit 0, not-conformant)");
    expect(lines[2]).toBe("2 regressed (1 counted at --level must), 2 fixed, 1 became not applicable");
    expect(lines.slice(3, 8).map((l) => l.split(/\s+/).slice(0, 3).join(" "))).toEqual([
      "REGRESSED MUST provider/area/worse:",
      "REGRESSED SHOULD provider/area/warn:",
      "FIXED MUST provider/area/better:",
      "FIXED MUST provider/area/better2:",
      "BECAME NOT APPLICABLE",
    ]);
    expect(lines[3]).toMatch(/provider\/area\/worse: pass → fail: worse broke$/);
    expect(lines[4]).toMatch(/pass → fail: warn broke \(not counted: SHOULD at --level must\)$/);
    expect(lines[5]).toMatch(/fail → pass \(was: better broke\)$/);
    expect(lines[7]).toMatch(/skipped → not applicable: gone was not run$/);
    expect(lines.at(-1)).toBe("regressed: 1 clause at --level must (exit 1)");
    expect(text).not.toMatch(/provider\/area\/same/);
  });

  it("a report against itself: nothing changed", () => {
    const same = renderDiffConsole(diffReports(older, older), { color: false });
    expect(same.split("\n").slice(2)).toEqual(["nothing changed (6 clauses the same)", "no regression at --level must", ""]);
  });

  it("escapes control characters a report holds", () => {
    const hostile = reportOf([result("x", "fail", { findings: [{ clause: "provider/area/x", message: "\u001b[31mred\u001b[0m\nsecond" }] })]);
    const out = renderDiffConsole(diffReports(reportOf([result("x", "pass")]), hostile), { color: false });
    expect(out).not.toContain("\u001b");
    expect(out).toContain("\\u001b[31mred");
  });
});

describe("markdown", () => {
  it("a heading with the headline, both sides, and a table row per change", () => {
    const md = renderDiffMarkdown(diff);
    expect(md.split("\n")[0]).toBe("## ❌ Regressed: 2 regressed \\(1 counted at --level must\\), 2 fixed, 1 became not applicable");
    expect(md).toContain("- **OLD:** main/report.json, kit 0, not-conformant, p");
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Change"));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toBe("| ❌ regressed | MUST | provider/area/worse | pass → fail: worse broke |");
    expect(rows[1]).toMatch(/^\| ⚠️ regressed \\\(not counted: SHOULD at --level must\\\) \| SHOULD \|/);
    expect(rows[2]).toMatch(/^\| ✅ fixed \|/);
    expect(md).not.toMatch(/area\/same/);
  });

  it("no regression: says so", () => {
    expect(renderDiffMarkdown(diffReports(older, older)).split("\n")[0]).toBe("## ✅ No regression: nothing changed \\(6 clauses the same\\)");
  });

  it("a hostile failure message cannot break the table or add markup", () => {
    const hostile = reportOf([result("x", "fail", { findings: [{ clause: "provider/area/x", message: "a | b <script>alert(1)</script> [l](http://x) `c`" }] })]);
    const md = renderDiffMarkdown(diffReports(reportOf([result("x", "pass")]), hostile));
    const row = md.split("\n").find((l) => l.includes("provider/area/x")) ?? "";
    expect(row.split(/(?<!\\)\|/)).toHaveLength(6);
    expect(row).not.toMatch(/<script>|\]\(http/);
  });

  it("JSON is the diff itself", () => {
    expect(JSON.parse(renderDiffJson(diff))).toEqual(JSON.parse(JSON.stringify(diff)));
  });
});

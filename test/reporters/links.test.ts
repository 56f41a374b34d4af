/**
 * Report links must work where the report is read: a CI artifact downloaded on another
 * machine. Every format the CLI writes is rendered the way the CLI writes it (emitReport, no
 * --docs-url) and every link in it is checked: a public https URL, or a place inside the
 * report itself. Never a file:// path of the machine that ran the kit.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitReport } from "../../src/cli/output.js";
import type { RunReport } from "../../src/core/report/types.js";
import { REPORTER_NAMES } from "../../src/reporters/registry.js";

const load = (name: string): RunReport => JSON.parse(readFileSync(new URL(`../fixtures/reports/${name}.json`, import.meta.url), "utf8")) as RunReport;
const agent = load("agent-cli-sample");
const failing = agent.clauses.find((c) => c.status === "fail");
if (failing === undefined) throw new Error("the agent-cli sample has a failure");

/** A host report (check-launch) with one failing host clause, built from the agent-cli sample. */
const host: RunReport = {
  ...agent,
  protocol: "host",
  clauses: [{ ...failing, id: "host/launch/no-shell", title: "the CLI's parent is not a shell", findings: failing.findings.map((f) => ({ ...f, clause: "host/launch/no-shell" })) }],
};
const REPORTS: Readonly<Record<string, RunReport>> = { provider: load("provider-sample"), agent, incomplete: load("provider-incomplete-sample"), host };

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every output the CLI writes for the report, by file name ("console" for printed text). */
async function renderAll(report: RunReport, docsUrl?: string): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), "kit-links-"));
  dirs.push(dir);
  let printed = "";
  await emitReport(report, { reporters: [...REPORTER_NAMES], outDir: dir, color: false, print: (text) => (printed += text), ...(docsUrl !== undefined ? { docsUrl } : {}) });
  const out = new Map<string, string>([["console", printed]]);
  for (const name of readdirSync(dir)) out.set(name, readFileSync(join(dir, name), "utf8"));
  return out;
}

/** The link targets of one output: HTML href, Markdown link targets, JUnit "see:", TAP "link:". */
function linksOf(name: string, text: string): string[] {
  if (name.endsWith(".html")) return [...text.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? "");
  if (name.endsWith(".md")) return [...text.matchAll(/\]\(([^)\s]*)\)/g)].map((m) => m[1] ?? "");
  if (name.endsWith(".xml")) return [...text.matchAll(/^see: (\S+)/gm)].map((m) => m[1] ?? "");
  if (name.endsWith(".tap")) return [...text.matchAll(/^\s*link: "?([^"\s]+)"?$/gm)].map((m) => m[1] ?? "");
  return [];
}

/** A target that works from the report folder: a public https URL, or an anchor or file inside the folder. */
function worksInArtifact(target: string): boolean {
  if (/^https:\/\/[^/]+\//.test(target)) return true;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return false;
  return !target.startsWith("/") && !target.split(/[/#?]/).includes("..");
}

describe("report links in a CI artifact", () => {
  it.each(Object.keys(REPORTS))("every format of the %s report links to public https URLs or inside the report, never file://", async (key) => {
    const outputs = await renderAll(REPORTS[key]!);
    expect([...outputs.keys()].sort()).toEqual(["badge.json", "badge.svg", "console", "report.html", "report.json", "report.md", "report.tap", "report.xml"]);
    let linked = 0;
    for (const [name, text] of outputs) {
      expect(text, name).not.toContain("file://");
      for (const target of linksOf(name, text)) {
        expect(worksInArtifact(target), `${name}: ${target}`).toBe(true);
        linked++;
      }
    }
    // Each clause's source is linked in the HTML page at least.
    expect(linked, key).toBeGreaterThanOrEqual(REPORTS[key]!.clauses.length);
  });

  it("a failing clause links to its public source in JUnit, TAP, Markdown and HTML", async () => {
    const outputs = await renderAll(agent);
    for (const name of ["report.xml", "report.tap", "report.md", "report.html"]) {
      const external = linksOf(name, outputs.get(name) ?? "").filter((t) => t.startsWith("https://"));
      expect(external.length, name).toBeGreaterThan(0);
      for (const url of external) expect(url, name).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//);
    }
  });

  it("--docs-url still sends clause links to the docs the user hosts", async () => {
    const outputs = await renderAll(agent, "https://example.org/awp/clauses.md");
    const anchor = `https://example.org/awp/clauses.md#${failing.id.replace(/\//g, "-")}`;
    for (const name of ["report.xml", "report.tap", "report.md", "report.html"]) expect(linksOf(name, outputs.get(name) ?? ""), name).toContain(anchor);
  });
});

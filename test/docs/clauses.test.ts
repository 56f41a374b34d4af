import { existsSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCatalogue } from "../../src/core/clauses/catalogue.js";
import { SOURCES, sourceUrl } from "../../src/core/clauses/sources.js";
import { renderClauseDocs, sourceLink } from "../../src/docs/clauses.js";
import { FAULT_SOURCES, faultCasesOf, type FaultTable } from "../../src/docs/fault-tables.js";
import { areaOf, clauseAnchor } from "../../src/reporters/links.js";
import * as agentCliFaults from "../integration/agent-cli-faults.js";
import * as providerFaults from "../integration/provider-faults.js";
import * as hostRecordCases from "../core/host/launch-record-cases.js";
import * as reactionRecordCases from "../core/host/reaction-record-cases.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "test/integration/provider-faults.ts": providerFaults,
  "test/integration/agent-cli-faults.ts": agentCliFaults,
  "test/core/host/launch-record-cases.ts": hostRecordCases,
  "test/core/host/reaction-record-cases.ts": reactionRecordCases,
};
const faults: FaultTable[] = FAULT_SOURCES.map((source) => {
  const module = MODULES[source.table];
  if (module === undefined) throw new Error(`the docs test does not import ${source.table}: add it to MODULES`);
  return { ...source, cases: faultCasesOf(module) };
});
const REGENERATE = "npm run build && node scripts/clause-docs.mjs";
const committed = existsSync(`${root}docs/clauses.md`) ? readFileSync(`${root}docs/clauses.md`, "utf8") : "";
const docs = renderClauseDocs(faults);
const PROTOCOLS = ["provider", "agent-cli", "host"] as const;
const clauses = PROTOCOLS.flatMap((protocol) => loadCatalogue(protocol));
const anchors = [...docs.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);

describe("docs/clauses.md", () => {
  it("is up to date with suites/ and the fault tables", () => {
    // On failure: regenerate the file and commit it.
    expect(docs === committed, `docs/clauses.md is out of date; regenerate it with: ${REGENERATE}`).toBe(true);
  });

  it("gives every clause, area and protocol its anchor, right before its heading", () => {
    for (const clause of clauses) {
      expect(docs, clause.id).toContain(`<a id="${clauseAnchor(clause.id)}"></a>\n\n#### ${clause.id} · ${clause.level} · `);
    }
    for (const id of new Set(clauses.map((c) => areaOf(c.id)))) expect(anchors).toContain(clauseAnchor(id));
    expect(anchors).toEqual(expect.arrayContaining([...PROTOCOLS]));
  });

  it("has unique anchors", () => {
    expect(anchors.length).toBe(clauses.length + new Set(clauses.map((c) => areaOf(c.id))).size + PROTOCOLS.length);
    expect(new Set(anchors).size).toBe(anchors.length);
  });

  it("links the contents to anchors that exist", () => {
    const targets = [...docs.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(anchors, target).toContain(target);
  });

  it("links every clause's source to its public, versioned place, and never to a working copy", () => {
    for (const clause of clauses) {
      const at = docs.indexOf(`<a id="${clauseAnchor(clause.id)}"></a>`);
      const entry = docs.slice(at, docs.indexOf("<a id=", at + 1));
      expect(entry, clause.id).toContain(`- **Source:** ${sourceLink(clause.source)}\n`);
      expect(entry, clause.id).toContain(`](${sourceUrl(clause.source) ?? "unresolved"})`);
    }
    expect(docs).not.toMatch(/spec\/[a-z-]+\.md|upstream-facts/);
    // The table of sources names each document with its link at its commit.
    for (const doc of Object.values(SOURCES)) expect(docs).toContain(`](https://github.com/${doc.repo}/blob/${doc.commit}/${doc.path}) |`);
  });

  it("says how every clause is tested and which broken fake fails it", () => {
    expect(docs).not.toContain("not listed: no scenario or request group");
    expect(docs).not.toContain("no broken fake fails this clause yet");
    expect(docs.match(/^- \*\*How it is tested:\*\* /gm)).toHaveLength(clauses.length);
    expect(docs.match(/^- \*\*Shown to fail by:\*\* /gm)).toHaveLength(clauses.length);
  });

  it("reads every fault case of the tables", () => {
    const total = [...Object.values(providerFaults), ...Object.values(agentCliFaults), ...Object.values(hostRecordCases), ...Object.values(reactionRecordCases)].reduce((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
    expect(faults.reduce((n, t) => n + t.cases.length, 0)).toBe(total);
  });

  it("is deterministic and names its generator", () => {
    expect(renderClauseDocs(faults)).toBe(docs);
    expect(docs).toContain("scripts/clause-docs.mjs");
    expect(docs).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
  });

  it("without the fault tables, points at them instead", () => {
    expect(renderClauseDocs()).toContain("the mock faults of `src/mocks/` (docs/mocks.md), see `test/integration/*-faults.ts`");
  });

  it.skipIf(!existsSync(`${root}dist/src/docs/clauses.js`))("scripts/clause-docs.mjs --check agrees (needs the build)", () => {
    const out = execFileSync(process.execPath, ["scripts/clause-docs.mjs", "--check"], { cwd: root, encoding: "utf8" });
    expect(out).toContain("up to date");
  });
});

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceLink } from "../../src/docs/clauses.js";
import { FAULT_SOURCES, faultCasesOf, type FaultTable } from "../../src/docs/fault-tables.js";
import { mockAnchor, renderMockDocs } from "../../src/docs/mocks.js";
import { CATALOGUE } from "../../src/mocks/catalogue/index.js";
import * as agentCliFaults from "../integration/agent-cli-faults.js";
import * as providerFaults from "../integration/provider-faults.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  "test/integration/provider-faults.ts": providerFaults,
  "test/integration/agent-cli-faults.ts": agentCliFaults,
};
const tables: FaultTable[] = FAULT_SOURCES.map((source) => ({ ...source, cases: faultCasesOf(MODULES[source.table] ?? {}) }));
const committed = existsSync(`${root}docs/mocks.md`) ? readFileSync(`${root}docs/mocks.md`, "utf8") : "";
const docs = renderMockDocs(tables);

describe("docs/mocks.md", () => {
  it("is up to date with the mock catalogue and the fault tables", () => {
    // On failure: regenerate the file and commit it.
    expect(docs === committed, "docs/mocks.md is out of date; regenerate it with: npm run build && node scripts/clause-docs.mjs").toBe(true);
  });

  it("documents every fault once, with its parameters' defaults, what a correct host does and the contract section", () => {
    for (const fault of CATALOGUE) {
      const at = docs.indexOf(`<a id="${mockAnchor(fault)}"></a>`);
      expect(at, fault.name).toBeGreaterThan(-1);
      expect(docs.indexOf(`<a id="${mockAnchor(fault)}"></a>`, at + 1), fault.name).toBe(-1);
      const entry = docs.slice(at, docs.indexOf("<a id=", at + 1) === -1 ? undefined : docs.indexOf("<a id=", at + 1));
      expect(entry).toContain(`- **A correct host:** `);
      expect(entry).toContain(`(${sourceLink(fault.host.section, false)})`);
      expect(sourceLink(fault.host.section, false), fault.name).toMatch(/^\[.+\]\(https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\/[^)]+\)$/);
      for (const p of fault.params) expect(entry).toContain(`${p.name}=${String(p.default)}`);
    }
  });

  it("names the kit clauses a fault of the tables fails, linked to docs/clauses.md", () => {
    const huge = docs.slice(docs.indexOf('<a id="mock-agent-cli-huge-line">'));
    expect(huge.slice(0, huge.indexOf("<a id=", 1))).toContain("[`agent-cli/output/line-size`](clauses.md#agent-cli-output-line-size)");
    expect(renderMockDocs()).not.toContain("Fails the kit's clause");
  });
});

/**
 * The build's catalogue snapshot (used by `list`): it gives exactly what the validating loader
 * gives, and any change to a suite file, to suite.schema.json or to the source table makes it miss.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalogue, loadSuiteFiles, suiteSnapshot } from "../../../src/core/clauses/catalogue.js";
import { catalogueOf, orderedClauses, suitesFromSnapshot } from "../../../src/core/clauses/snapshot.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A package root holding a copy of the provider suites and the suite schema. */
function copyRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "awp-snapshot-"));
  dirs.push(root);
  mkdirSync(join(root, "schemas"));
  cpSync(join(ROOT, "schemas", "suite.schema.json"), join(root, "schemas", "suite.schema.json"));
  cpSync(join(ROOT, "suites", "provider"), join(root, "suites", "provider"), { recursive: true });
  return root;
}

describe("the catalogue snapshot", () => {
  it("holds what the validating loader reads, in the catalogue's order", () => {
    const root = copyRoot();
    const snapshot = suiteSnapshot(["provider"], root);
    const suites = suitesFromSnapshot("provider", snapshot, root);
    expect(suites).toEqual(loadSuiteFiles("provider", join(root, "suites")));
    expect(orderedClauses(suites ?? [])).toEqual(loadCatalogue("provider"));
  });

  it("misses when a file is edited, added or removed, or the schema changes", () => {
    const edited = copyRoot();
    const snapshot = suiteSnapshot(["provider"], edited);
    appendFileSync(join(edited, "suites", "provider", "invoke.yaml"), "# edited\n");
    expect(suitesFromSnapshot("provider", snapshot, edited)).toBeUndefined();

    const added = copyRoot();
    writeFileSync(join(added, "suites", "provider", "zz-extra.yaml"), "protocol: provider\n");
    expect(suitesFromSnapshot("provider", snapshot, added)).toBeUndefined();

    const removed = copyRoot();
    rmSync(join(removed, "suites", "provider", "invoke.yaml"));
    expect(suitesFromSnapshot("provider", snapshot, removed)).toBeUndefined();

    const schema = copyRoot();
    appendFileSync(join(schema, "schemas", "suite.schema.json"), "\n");
    expect(suitesFromSnapshot("provider", snapshot, schema)).toBeUndefined();
    expect(suitesFromSnapshot("agent-cli", snapshot, copyRoot())).toBeUndefined();

    // Citations were checked against another source table (a heading dropped from sources.ts, say).
    expect(suitesFromSnapshot("provider", { ...snapshot, sources: "0".repeat(64) }, copyRoot())).toBeUndefined();
    expect(suitesFromSnapshot("provider", snapshot, copyRoot())).toBeDefined();
  });

  it("leaves out a protocol whose files do not validate, so they fail at run time as before", () => {
    const root = copyRoot();
    writeFileSync(join(root, "suites", "provider", "invoke.yaml"), "protocol: provider\narea: invoke\n");
    expect(suiteSnapshot(["provider"], root).protocols.provider).toBeUndefined();
  });

  it("is what catalogueOf reads when it matches the package's files", async () => {
    const snapshot = suiteSnapshot(["agent-cli"]);
    const first = Object.values(snapshot.protocols["agent-cli"] ?? {})[0];
    first?.suite.clauses.splice(1);
    const path = join(copyRoot(), "snapshot.json");
    writeFileSync(path, JSON.stringify(snapshot));
    const clauses = await catalogueOf("agent-cli", path);
    expect(clauses.length).toBe(loadCatalogue("agent-cli").length - (first === undefined ? 0 : loadSuiteFiles("agent-cli")[0]!.clauses.length - 1));
  });

  it("falls back to the YAML files when there is no snapshot", async () => {
    expect(await catalogueOf("agent-cli", join(copyRoot(), "missing.json"))).toEqual(loadCatalogue("agent-cli"));
  });
});

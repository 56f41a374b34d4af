/**
 * The clause catalogue without YAML or Ajv. `npm run build` stores the parsed and validated
 * suite files beside this module (suite-snapshot.json, with the SHA-256 of every file and of
 * suite.schema.json); the catalogue is taken from there when every file is byte for byte what
 * was validated, and otherwise the files are loaded the full way. `list` reads it through
 * catalogueOf, which loads neither the YAML reader nor Ajv; every other command through loadCatalogue.
 * The same bytes give the same data and the same verdict, so the output cannot differ; an edited,
 * added or removed file, an edited schema or an edited source table (sources.ts, against which
 * the loader checks every clause's citation) misses and goes through the YAML reader and Ajv.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { KitError } from "../errors.js";
import { packageRoot } from "../paths.js";
import type { Clause, SuiteProtocol } from "../report/types.js";
import { SOURCES } from "./sources.js";

export interface SuiteFile {
  protocol: SuiteProtocol;
  area: string;
  order: number;
  clauses: Clause[];
}

/** Per protocol: suite.schema.json's hash, the source table's, and per file name its hash and its validated content. */
export interface SuiteSnapshot {
  schema: string;
  /** sourcesHash() when the files were validated: their citations were checked against that table. */
  sources: string;
  protocols: Partial<Record<SuiteProtocol, Record<string, { sha256: string; suite: SuiteFile }>>>;
}

export const sha256 = (bytes: string | Buffer): string => createHash("sha256").update(bytes).digest("hex");

/** Where the build writes the snapshot: beside the compiled module (dist/src/core/clauses/). */
export function snapshotPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "suite-snapshot.json");
}

/** The hash of the source table the loader checks citations against. */
export function sourcesHash(): string {
  return sha256(JSON.stringify(SOURCES));
}

export function suiteSchemaHash(root = packageRoot()): string {
  return sha256(readFileSync(join(root, "schemas", "suite.schema.json")));
}

/** The suite files of a protocol in the order the catalogue reads them. */
export function suiteFileNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".yaml"))
    .sort();
}

/** The suites of `protocol` from the snapshot, or undefined unless every file (and the schema) is the one validated. */
export function suitesFromSnapshot(protocol: SuiteProtocol, snapshot: SuiteSnapshot, root = packageRoot()): SuiteFile[] | undefined {
  const stored = snapshot.protocols[protocol];
  if (stored === undefined || snapshot.schema !== suiteSchemaHash(root) || snapshot.sources !== sourcesHash()) return undefined;
  const dir = join(root, "suites", protocol);
  const names = suiteFileNames(dir);
  if (names.length !== Object.keys(stored).length) return undefined;
  const suites: SuiteFile[] = [];
  for (const name of names) {
    const entry = stored[name];
    if (entry === undefined || entry.sha256 !== sha256(readFileSync(join(dir, name)))) return undefined;
    suites.push(entry.suite);
  }
  return suites;
}

/** All clauses of a protocol, by area order then declaration order; ids must be unique. */
export function orderedClauses(suites: SuiteFile[]): Clause[] {
  const clauses = [...suites].sort((a, b) => a.order - b.order || a.area.localeCompare(b.area)).flatMap((suite) => suite.clauses);
  const seen = new Set<string>();
  for (const clause of clauses) {
    if (seen.has(clause.id)) throw new KitError("catalogue_invalid", `duplicate clause id ${clause.id}`);
    seen.add(clause.id);
  }
  return clauses;
}

function readSnapshot(path: string): SuiteSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as SuiteSnapshot;
  } catch {
    return undefined;
  }
}

/** The suite files of `protocol` from the build's snapshot, or undefined when there is none or it does not match the files. */
export function snapshotSuites(protocol: SuiteProtocol, path = snapshotPath()): SuiteFile[] | undefined {
  const snapshot = readSnapshot(path);
  return snapshot === undefined ? undefined : suitesFromSnapshot(protocol, snapshot);
}

/** The catalogue of `protocol`: from the build's snapshot when it matches, else from the YAML files through the validating loader. */
export async function catalogueOf(protocol: SuiteProtocol, path = snapshotPath()): Promise<Clause[]> {
  const suites = snapshotSuites(protocol, path);
  if (suites !== undefined) return orderedClauses(suites);
  const { loadCatalogue } = await import("./catalogue.js");
  return loadCatalogue(protocol);
}

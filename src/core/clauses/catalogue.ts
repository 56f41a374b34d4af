import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { KitError } from "../errors.js";
import { packageRoot } from "../paths.js";
import { describeSchemaErrors, kitSchema } from "../schema.js";
import type { Clause, SuiteProtocol } from "../report/types.js";
import { sourceProblem } from "./sources.js";
import { orderedClauses, sha256, snapshotSuites, sourcesHash, suiteFileNames, suiteSchemaHash, type SuiteFile, type SuiteSnapshot } from "./snapshot.js";

export type { SuiteFile } from "./snapshot.js";

const cache = new Map<string, Clause[]>();

/** Reads suites/<protocol>/*.yaml, validates each file against schemas/suite.schema.json and every clause's source against the source table (sources.ts). */
export function loadSuiteFiles(protocol: SuiteProtocol, suitesDir = join(packageRoot(), "suites")): SuiteFile[] {
  const dir = join(suitesDir, protocol);
  const validate = kitSchema("suite.schema.json");
  // The YAML reader loads only when the build's snapshot does not hold the files (CommonJS under Node).
  const { parse: parseYaml } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return suiteFileNames(dir).map((name) => {
    const data: unknown = parseYaml(readFileSync(join(dir, name), "utf8"));
    if (!validate(data)) {
      throw new KitError("catalogue_invalid", `${protocol}/${name}: ${describeSchemaErrors(validate.errors)}`);
    }
    const suite = data as SuiteFile;
    const expectedArea = name.replace(/\.yaml$/, "");
    if (suite.protocol !== protocol || suite.area !== expectedArea) {
      throw new KitError("catalogue_invalid", `${protocol}/${name}: protocol/area do not match the file's place`);
    }
    for (const clause of suite.clauses) {
      if (!clause.id.startsWith(`${protocol}/${suite.area}/`)) {
        throw new KitError("catalogue_invalid", `${clause.id}: id is not under ${protocol}/${suite.area}/`);
      }
      const problem = sourceProblem(clause.source);
      if (problem !== undefined) throw new KitError("catalogue_invalid", `${clause.id}: ${problem}`);
    }
    return suite;
  });
}

/** All clauses of a protocol, by area order then declaration order; ids are unique. From the build's snapshot when it matches the files (no YAML parse, no schema compile at each start). */
export function loadCatalogue(protocol: SuiteProtocol): Clause[] {
  const known = cache.get(protocol);
  if (known !== undefined) return known;
  const clauses = orderedClauses(snapshotSuites(protocol) ?? loadSuiteFiles(protocol));
  cache.set(protocol, clauses);
  return clauses;
}

/**
 * What the build stores for `catalogueOf` (snapshot.ts): every protocol whose files load and validate
 * now, with each file's hash. A protocol that fails is left out, so it fails at run time as before.
 */
export function suiteSnapshot(protocols: readonly SuiteProtocol[], root = packageRoot()): SuiteSnapshot {
  const snapshot: SuiteSnapshot = { schema: suiteSchemaHash(root), sources: sourcesHash(), protocols: {} };
  for (const protocol of protocols) {
    const dir = join(root, "suites", protocol);
    try {
      const suites = loadSuiteFiles(protocol, join(root, "suites"));
      orderedClauses(suites);
      snapshot.protocols[protocol] = Object.fromEntries(suiteFileNames(dir).map((name, i) => [name, { sha256: sha256(readFileSync(join(dir, name))), suite: suites[i]! }]));
    } catch (error) {
      if (!(error instanceof KitError)) throw error;
    }
  }
  return snapshot;
}

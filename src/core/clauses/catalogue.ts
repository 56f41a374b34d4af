import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { KitError } from "../errors.js";
import { packageRoot } from "../paths.js";
import { describeSchemaErrors, kitSchema } from "../schema.js";
import type { Clause, Protocol } from "../report/types.js";

export interface SuiteFile {
  protocol: Protocol;
  area: string;
  order: number;
  clauses: Clause[];
}

const cache = new Map<string, Clause[]>();

/** Reads suites/<protocol>/*.yaml, validates each file against schemas/suite.schema.json. */
export function loadSuiteFiles(protocol: Protocol, suitesDir = join(packageRoot(), "suites")): SuiteFile[] {
  const dir = join(suitesDir, protocol);
  const validate = kitSchema("suite.schema.json");
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".yaml"))
    .sort();
  return files.map((name) => {
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
    }
    return suite;
  });
}

/** All clauses of a protocol, by area order then declaration order; ids are unique. */
export function loadCatalogue(protocol: Protocol): Clause[] {
  const known = cache.get(protocol);
  if (known !== undefined) return known;
  const suites = loadSuiteFiles(protocol).sort((a, b) => a.order - b.order || a.area.localeCompare(b.area));
  const clauses = suites.flatMap((suite) => suite.clauses);
  const seen = new Set<string>();
  for (const clause of clauses) {
    if (seen.has(clause.id)) throw new KitError("catalogue_invalid", `duplicate clause id ${clause.id}`);
    seen.add(clause.id);
  }
  cache.set(protocol, clauses);
  return clauses;
}

// After the build: writes the standalone validator of every schema of schemas/ where kitSchema
// looks for it (src/core/schema-standalone.ts), so a run does not load Ajv to validate its own
// requests. A schema edited after the build no longer matches its hash and is compiled live.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { packageRoot } from "../dist/src/core/paths.js";
import { precompiledPath } from "../dist/src/core/schema.js";
import { standaloneValidator } from "../dist/src/core/schema-standalone.js";

const root = join(packageRoot(), "schemas");
// readdirSync lists them relative to schemas/, in the platform's separators; kitSchema names them with "/".
const schemas = readdirSync(root, { recursive: true }).filter((name) => name.endsWith(".schema.json")).map((name) => name.split(sep).join("/"));
// Every validator of an earlier build goes first (a schema since removed leaves none behind).
rmSync(dirname(precompiledPath("any.schema.json")), { recursive: true, force: true });
for (const name of schemas) {
  const path = precompiledPath(name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, standaloneValidator(name));
}

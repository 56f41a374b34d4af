import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { packageRoot } from "./paths.js";

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * One shared Ajv instance (draft 2020-12, formats, strict) for the kit's own schemas. Ajv is
 * loaded on the first call (both packages are CommonJS), so a command that validates nothing
 * does not pay for it at start. It does not check the kit's schemas against the draft's
 * meta-schema as it compiles them (a third to a half of compiling the request schema, which
 * every provider run does before its first call): test/schemas/kit-schemas.test.ts does.
 */
export function kitAjv(): Ajv2020 {
  if (ajv === undefined) {
    const require = createRequire(import.meta.url);
    const { Ajv2020: Ajv } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    const addFormats = require("ajv-formats") as typeof import("ajv-formats");
    ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, validateSchema: false });
    addFormats.default(ajv);
  }
  return ajv;
}

/** Loads and compiles a schema from schemas/ by its path relative to that folder. */
export function kitSchema(relativePath: string): ValidateFunction {
  const known = compiled.get(relativePath);
  if (known !== undefined) return known;
  const schema = JSON.parse(readFileSync(join(packageRoot(), "schemas", relativePath), "utf8")) as object;
  const validate = kitAjv().compile(schema);
  compiled.set(relativePath, validate);
  return validate;
}

export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "no details";
  return errors
    .slice(0, 5)
    .map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`)
    .join("; ");
}

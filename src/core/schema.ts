import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { packageRoot } from "./paths.js";

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** One shared Ajv instance (draft 2020-12, formats, strict) for the kit's own schemas. */
export function kitAjv(): Ajv2020 {
  if (ajv === undefined) {
    ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
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

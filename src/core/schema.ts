import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from "ajv/dist/2020.js";
import { sha256 } from "./clauses/snapshot.js";
import { packageRoot } from "./paths.js";

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();
const require = createRequire(import.meta.url);

/** The kit's Ajv options: its shared instance and the validators the build precompiles use the same. */
const KIT_AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true, validateSchema: false } as const;

/**
 * A new Ajv (draft 2020-12, formats, strict) with the kit's options and `options` over them (the
 * build's standalone validators add code options, schema-standalone.ts; input files stop at the
 * first error, inputs/json.ts). Ajv is loaded by the first call
 * (both packages are CommonJS), so a command that validates nothing does not pay for it. It
 * does not check the kit's schemas against the draft's meta-schema as it compiles them (a third
 * to a half of compiling the request schema): test/schemas/kit-schemas.test.ts does.
 */
export function newKitAjv(options: Options = {}): Ajv2020 {
  const { Ajv2020: Ajv } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const addFormats = require("ajv-formats") as typeof import("ajv-formats");
  const instance = new Ajv({ ...KIT_AJV_OPTIONS, ...options });
  addFormats.default(instance);
  return instance;
}

/** One shared Ajv instance for the kit's own schemas (and the Provider's, when fuzzing). */
export function kitAjv(): Ajv2020 {
  ajv ??= newKitAjv();
  return ajv;
}

/** A schema of schemas/ by its path relative to that folder: its bytes. */
export function kitSchemaText(relativePath: string): Buffer {
  return readFileSync(join(packageRoot(), "schemas", relativePath));
}

/** Where the build writes the standalone validator of a schema of schemas/ (beside this module, in dist). */
export function precompiledPath(relativePath: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), "schemas", relativePath.replace(/\.json$/, ".cjs"));
}

/**
 * The build's standalone validator of the schema (scripts/compile-schemas.mjs), when it was
 * compiled from these very bytes: the same code Ajv would generate now, without loading Ajv
 * (about 50 ms) or compiling (about 20 ms per schema) at the start of every run.
 */
export function precompiledValidator(path: string, text: Buffer): ValidateFunction | undefined {
  if (!existsSync(path)) return undefined;
  const validate = require(path) as ValidateFunction & { sha256?: unknown };
  return validate.sha256 === sha256(text) ? validate : undefined;
}

/** Loads and compiles a schema from schemas/ by its path relative to that folder. */
export function kitSchema(relativePath: string): ValidateFunction {
  const known = compiled.get(relativePath);
  if (known !== undefined) return known;
  const text = kitSchemaText(relativePath);
  const validate = precompiledValidator(precompiledPath(relativePath), text) ?? kitAjv().compile(JSON.parse(text.toString("utf8")) as object);
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

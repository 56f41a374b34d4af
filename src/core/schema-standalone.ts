/**
 * The build's standalone validators of the kit's schemas (Ajv's standalone code, CommonJS):
 * scripts/compile-schemas.mjs writes one per schema of schemas/ where kitSchema looks for it,
 * each with the SHA-256 of the bytes it was compiled from, so an edited schema is compiled live.
 */
import { createRequire } from "node:module";
import { sha256 } from "./clauses/snapshot.js";
import { kitSchemaText, newKitAjv } from "./schema.js";

const require = createRequire(import.meta.url);

/** The CommonJS source of the standalone validator of a schema of schemas/. */
export function standaloneValidator(relativePath: string): string {
  const { _ } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const standaloneCode = (require("ajv/dist/standalone/index.js") as typeof import("ajv/dist/standalone/index.js")).default;
  // The formats the kit's Ajv adds (ajv-formats' full set), required by the generated code.
  const ajv = newKitAjv({ code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } });
  const text = kitSchemaText(relativePath);
  const validate = ajv.compile(JSON.parse(text.toString("utf8")) as object);
  return `${standaloneCode(ajv, validate)}\nmodule.exports.sha256 = ${JSON.stringify(sha256(text))};\n`;
}

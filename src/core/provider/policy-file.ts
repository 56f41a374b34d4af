/**
 * Reading policy-test case files: the bounded, strict readers of src/core/inputs (a regular
 * file within the size limit, UTF-8 text), then strict JSON for .json files and YAML (the
 * `yaml` package: unique keys, few aliases) for the rest. Whatever the file holds must be
 * plain JSON data within the limits before the schema sees it.
 */
import { extname } from "node:path";
import { parseDocument } from "yaml";
import { checkNumbers, checkText, INPUT_LIMITS, parseInputJson, printable, readInputFile, withoutBom } from "../inputs/index.js";
import { inputError } from "../inputs/read.js";
import type { JsonValue } from "../json/index.js";
import { expandCases, type PolicyCase } from "./policy-cases.js";

/** Aliases expand: a few let a file reuse a template, many are a billion-laughs bomb. */
const MAX_ALIASES = 100;

/** Refuses anything that is not JSON data (YAML can hold more), too deep, or too many values. */
function plainJson(value: unknown, file: string, budget: { values: number }, depth = 1, path = ""): JsonValue {
  const { maxDepth, maxValues } = INPUT_LIMITS.cases;
  if (--budget.values < 0) throw inputError(file, `more than ${maxValues} values, the policy case file limit`);
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw inputError(file, `${path || "/"} is not a finite number`);
    return value;
  }
  if (depth > maxDepth) throw inputError(file, `${printable(path.slice(0, 80))}… is nested deeper than the limit of ${maxDepth} levels (an alias that contains itself?)`);
  if (Array.isArray(value)) return value.map((item, i) => plainJson(item, file, budget, depth + 1, `${path}/${i}`));
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, { value: plainJson(item, file, budget, depth + 1, `${path}/${key}`), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  throw inputError(file, `${printable(path || "/")} holds a ${value instanceof Map ? "map with non-string keys" : typeof value} value, not JSON data`);
}

function parseYaml(bytes: Uint8Array, file: string): JsonValue {
  checkText(bytes, file);
  const text = Buffer.from(withoutBom(bytes)).toString("utf8");
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, strict: true });
  const error = doc.errors[0] ?? doc.warnings[0];
  if (error !== undefined) {
    const line = error.linePos?.[0]?.line;
    const first = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    throw inputError(file, `not valid YAML: ${printable(first)}${line !== undefined ? ` (line ${line})` : ""}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (cause) {
    throw inputError(file, `not valid YAML: ${printable(((cause as Error).message.split("\n")[0] ?? "").slice(0, 200))}`);
  }
  return plainJson(value, file, { values: INPUT_LIMITS.cases.maxValues });
}

/** The bytes of a case file as JSON data: strict JSON for .json, YAML otherwise. */
export function parseCaseFile(bytes: Uint8Array, file: string): JsonValue {
  const value = extname(file).toLowerCase() === ".json" ? parseInputJson(bytes, file, "cases") : parseYaml(bytes, file);
  // Integers past ±2^53 would not survive as numbers: identifiers that large belong in strings.
  checkNumbers(value, file, " (write large identifiers as strings)");
  return value;
}

/** Reads, parses and expands one case file. Every problem is a usage error: "FILE: what is wrong". */
export function readCaseFile(file: string): PolicyCase[] {
  return expandCases(parseCaseFile(readInputFile(file, "cases"), file), file);
}

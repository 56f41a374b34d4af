import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { parseJson, type JsonIssueKind, type JsonValue } from "../json/index.js";
import { packageRoot } from "../paths.js";
import { newKitAjv } from "../schema.js";
import { printableLine } from "../printable.js";
import { INPUT_LIMITS, type InputKind } from "./limits.js";
import { inputError } from "./read.js";
import { checkText, lineAt, withoutBom } from "./text.js";

/** Control characters and bidirectional overrides of a hostile file never reach the terminal raw. */
export const printable = printableLine;

/**
 * One pass over JSON text, strings skipped: the offset of the first bracket that opens a
 * level deeper than maxDepth (or -1), and how many values the text holds at most (each
 * bracket and each comma starts one), so a file's cost is known before anything is built.
 */
export function scanJson(bytes: Uint8Array, maxDepth: number): { deepAt: number; values: number } {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x2c) values++;
    else if (b === 0x5b || b === 0x7b) {
      values++;
      if (++depth > maxDepth) return { deepAt: i, values };
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return { deepAt: -1, values };
}

export interface JsonInputOptions {
  /** The line of the file this document is on (JSON Lines); whole files count their own lines. */
  line?: number;
  /** Issues that do not make the input malformed: values the kit itself writes faithfully. */
  lenient?: readonly JsonIssueKind[];
  /** The values the file may still hold (JSON Lines: one budget for all lines); default the kind's maxValues. */
  budget?: { values: number };
}

/**
 * Reads one JSON document of an input file strictly (src/core/json): one document, no
 * duplicate keys, no numbers outside the float range, nesting and the number of values
 * within the kind's limits (checked before anything is built). A leading byte order mark is skipped.
 */
export function parseInputJson(input: Uint8Array, file: string, kind: InputKind, options: JsonInputOptions = {}): JsonValue {
  // A whole file is text first (JSON Lines files were checked whole by their reader).
  if (options.line === undefined) checkText(input, file);
  const bytes = withoutBom(input);
  const lineOf = (offset: number): number => options.line ?? lineAt(bytes, offset);
  const { maxDepth, maxValues, what } = INPUT_LIMITS[kind];
  const scan = scanJson(bytes, maxDepth);
  if (scan.deepAt !== -1) throw inputError(file, `nested deeper than the limit of ${maxDepth} levels (line ${lineOf(scan.deepAt)})`);
  const budget = options.budget ?? { values: maxValues };
  budget.values -= scan.values;
  if (budget.values < 0) throw inputError(file, `more than ${maxValues} JSON values, the ${what} limit${options.line !== undefined ? ` (line ${options.line})` : ""}`);
  const parsed = parseJson(bytes, { maxBytes: bytes.length, maxDepth });
  const lenient = new Set(options.lenient ?? []);
  const issue = parsed.issues.find((i) => !lenient.has(i.kind));
  if (issue !== undefined) {
    if (issue.kind === "empty") throw inputError(file, options.line !== undefined ? `an empty line, not JSON (line ${options.line})` : "the file is empty (or only white space)");
    const at = issue.path !== undefined && issue.path !== "" ? ` at ${printable(issue.path)}` : "";
    const column = issue.kind === "syntax" ? ` at column ${issue.column}` : "";
    throw inputError(file, `not valid JSON: ${printable(issue.message)}${at}${column} (line ${lineOf(issue.offset)})`);
  }
  return parsed.value as JsonValue;
}

/** Refuses numbers a kit file never holds: past ±2^53 (counts, times, seeds). `skip` leaves a subtree out. */
export function checkNumbers(value: JsonValue, file: string, where: string, skip: (path: string) => boolean = () => false, path = ""): void {
  if (skip(path)) return;
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "bigint" || !Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) throw inputError(file, `the number at ${printable(path || "/")} is too large (${String(value)})${where}`);
    return;
  }
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) value.forEach((v, i) => checkNumbers(v, file, where, skip, `${path}/${i}`));
  else for (const [k, v] of Object.entries(value)) checkNumbers(v, file, where, skip, `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
}

let ajv: Ajv2020 | undefined;
const SCHEMA_FILES = ["report.schema.json", "replay.schema.json", "golden.schema.json", "policy-cases.schema.json"];
const BASE = "https://awp-conformance.dev/schemas/";

/**
 * Ajv for input files: stops at the first error (a hostile file must not make thousands).
 * Loaded on first use (both packages are CommonJS): a run that reads no such file, a provider
 * run say, whose modules import this one for scanJson, does not pay for it at start.
 */
function inputAjv(): Ajv2020 {
  if (ajv === undefined) {
    ajv = newKitAjv({ allErrors: false, validateSchema: true });
    for (const name of SCHEMA_FILES) ajv.addSchema(JSON.parse(readFileSync(join(packageRoot(), "schemas", name), "utf8")) as object);
  }
  return ajv;
}

/** A kit schema or one of its definitions: "report.schema.json", "golden.schema.json#/$defs/stdout". */
export function inputSchema(ref: string): ValidateFunction {
  const validate = inputAjv().getSchema(BASE + ref);
  if (validate === undefined) throw new Error(`no schema ${ref}`);
  return validate;
}

function detail(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") return `has an unknown property ${JSON.stringify(p.additionalProperty)}`;
  if (error.keyword === "required") return `lacks the required property ${JSON.stringify(p.missingProperty)}`;
  if (error.keyword === "enum") return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  if (error.keyword === "const") return `must be ${JSON.stringify(p.allowedValue)}`;
  return error.message ?? "is invalid";
}

/** The first schema error as "PATH what is wrong", the path a JSON Pointer into the document. */
export function firstSchemaError(errors: ErrorObject[] | null | undefined, prefix = "", whole = "the document"): string {
  const error = errors?.[0];
  if (error === undefined) return `${whole} does not match its schema`;
  const path = prefix + error.instancePath;
  return printable(`${path === "" ? whole : path} ${detail(error)}`);
}

/** Validates against a kit schema; throws "FILE: PATH what is wrong[ (line N)]". */
export function validateInput(value: unknown, ref: string, file: string, options: { line?: number; prefix?: string } = {}): void {
  const validate = inputSchema(ref);
  if (!validate(value)) throw inputError(file, `${firstSchemaError(validate.errors, options.prefix, options.line !== undefined ? "the line" : "the document")}${options.line !== undefined ? ` (line ${options.line})` : ""}`);
}

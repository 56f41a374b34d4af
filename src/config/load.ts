/**
 * Reading awp-conformance.config.yaml (.yml, .json): the bounded reader of
 * src/core/inputs, YAML (unique keys, few aliases) or strict JSON, the schema of schemas/, then
 * the checks a schema cannot make (unique names, one configuration source, the files named
 * exist). Every problem names the file, its line and column, and the key path; all are told
 * at once, as a configuration error (exit 2). Paths come back absolute, against the file's folder.
 */
import { statSync } from "node:fs";
import { dirname, extname, isAbsolute, resolve } from "node:path";
import { LineCounter, parseDocument, type Document } from "yaml";
import { KitError } from "../core/errors.js";
import { checkText, parseInputJson, printable, readInputFile, withoutBom } from "../core/inputs/index.js";
import { kitSchema, kitSchemaText } from "../core/schema.js";
import { keyPath, placeOf } from "./locate.js";
import { schemaProblems, type KeyPath, type Problem } from "./schema-errors.js";
import { CONFIG_SCHEMA, type ConfigCandidate, type KitConfig } from "./types.js";

/** Aliases expand: a few let a file reuse a block, many are a billion-laughs bomb. */
const MAX_ALIASES = 100;
/** The most problems one message lists. */
const MAX_PROBLEMS = 20;

interface Parsed {
  value: unknown;
  doc: Document;
  lines: LineCounter;
}

function parse(bytes: Uint8Array, file: string): Parsed {
  checkText(bytes, file);
  const text = Buffer.from(withoutBom(bytes)).toString("utf8");
  const lines = new LineCounter();
  const json = extname(file).toLowerCase() === ".json";
  // JSON is read strictly by the kit's own reader; the YAML parser only tells where things are.
  const strictValue = json ? parseInputJson(bytes, file, "config", {}) : undefined;
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: true, lineCounter: lines });
  const error = json ? undefined : (doc.errors[0] ?? doc.warnings[0]);
  if (error !== undefined) {
    const at = error.linePos?.[0];
    throw new KitError("config_invalid", `${printable(file)}${at !== undefined ? `:${at.line}:${at.col}` : ""}: not valid YAML: ${printable((error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, ""))}`);
  }
  let value: unknown = strictValue;
  if (!json) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (cause) {
      throw new KitError("config_invalid", `${printable(file)}: not valid YAML: ${printable(((cause as Error).message.split("\n")[0] ?? "").slice(0, 200))}`);
    }
  }
  return { value, doc, lines };
}

/** Values YAML can hold that JSON cannot (non-finite numbers, maps with other keys, dates...). */
function notJson(value: unknown, path: KeyPath = []): Problem | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { path, message: "is not a finite number" };
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = notJson(item, [...path, index]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const problem = notJson(item, [...path, key]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return { path, message: `holds a ${value instanceof Map ? "map with keys that are not strings" : typeof value} value, which is not JSON data` };
}

function absolute(dir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(dir, path);
}

/** The file a path key names must be a regular file. */
function fileProblem(path: string, at: KeyPath): Problem | undefined {
  try {
    return statSync(path).isFile() ? undefined : { path: at, message: `${printable(path)} is not a regular file` };
  } catch {
    return { path: at, message: `${printable(path)} does not exist` };
  }
}

/** The checks past the schema; paths made absolute on the way. */
function settle(candidates: ConfigCandidate[], dir: string): Problem[] {
  const problems: Problem[] = [];
  const names = new Map<string, number>();
  for (const [index, candidate] of candidates.entries()) {
    const at = (...rest: (string | number)[]): KeyPath => ["candidates", index, ...rest];
    const first = names.get(candidate.name);
    if (first !== undefined) problems.push({ path: at("name"), message: `"${candidate.name}" is also the name of candidates[${first}]: names must be unique` });
    else names.set(candidate.name, index);
    const executable = candidate.command[0] ?? "";
    if (executable.includes("/")) {
      candidate.command[0] = absolute(dir, executable);
      const problem = fileProblem(candidate.command[0], at("command", 0));
      if (problem !== undefined) problems.push(problem);
    }
    const files: ("expectedFailures" | "flaky" | "baseline" | "configFile" | "invalidConfigFile")[] = ["expectedFailures", "flaky", "baseline", "configFile", "invalidConfigFile"];
    const holder = candidate as unknown as Record<string, string | undefined>;
    for (const key of files) {
      const value = holder[key];
      if (value === undefined) continue;
      holder[key] = absolute(dir, value);
      const problem = fileProblem(holder[key], at(key));
      if (problem !== undefined) problems.push(problem);
    }
    if (candidate.protocol === "provider" && candidate.config !== undefined && candidate.configFile !== undefined) {
      problems.push({ path: at("configFile"), message: "give config or configFile, not both" });
    }
    if (candidate.protocol === "agent-cli" && candidate.home !== undefined) candidate.home = absolute(dir, candidate.home);
    if (candidate.fuzz?.corpus !== undefined) candidate.fuzz.corpus = absolute(dir, candidate.fuzz.corpus);
  }
  return problems;
}

function refuse(file: string, parsed: Parsed, problems: Problem[]): KitError {
  const lines = problems.slice(0, MAX_PROBLEMS).map((problem) => {
    const place = placeOf(parsed.doc, parsed.lines, problem.key !== undefined ? problem.path.slice(0, -1) : problem.path, problem.key);
    return { place, text: `${printable(file)}${place !== undefined ? `:${place.line}:${place.col}` : ""}: ${printable(keyPath(problem.path))}: ${printable(problem.message)}` };
  });
  lines.sort((a, b) => (a.place?.line ?? 0) - (b.place?.line ?? 0) || (a.place?.col ?? 0) - (b.place?.col ?? 0));
  const more = problems.length > MAX_PROBLEMS ? `\n  ... and ${problems.length - MAX_PROBLEMS} more` : "";
  const count = problems.length === 1 ? "a problem" : `${problems.length} problems`;
  return new KitError("config_invalid", `the configuration file ${printable(file)} has ${count}:\n${lines.map((l) => `  ${l.text}`).join("\n")}${more}\n  (schema: schemas/${CONFIG_SCHEMA}; --no-config runs without it)`);
}

/** Reads, validates and settles a configuration file; a configuration error names file, line and key. */
export function loadConfig(file: string): KitConfig {
  const path = resolve(file);
  const parsed = parse(readInputFile(path, "config", "config_invalid"), path);
  if (parsed.value === null || parsed.value === undefined) throw new KitError("config_invalid", `${printable(path)}: the file is empty; it needs at least candidates: (awp-conformance init writes one)`);
  const problem = notJson(parsed.value);
  if (problem !== undefined) throw refuse(path, parsed, [problem]);
  const validate = kitSchema(CONFIG_SCHEMA);
  if (!validate(parsed.value)) {
    const root = JSON.parse(kitSchemaText(CONFIG_SCHEMA).toString("utf8")) as { [key: string]: unknown };
    throw refuse(path, parsed, schemaProblems(root, validate.errors ?? [], parsed.value));
  }
  const value = structuredClone(parsed.value) as Omit<KitConfig, "file"> & { $schema?: string };
  const dir = dirname(path);
  const problems = settle(value.candidates, dir);
  if (problems.length > 0) throw refuse(path, parsed, problems);
  return {
    file: path,
    candidates: value.candidates,
    ...(value.reporters !== undefined ? { reporters: value.reporters } : {}),
    ...(value.out !== undefined ? { out: absolute(dir, value.out) } : {}),
    ...(value.docsUrl !== undefined ? { docsUrl: value.docsUrl } : {}),
    ...(value.evidence !== undefined ? { evidence: value.evidence } : {}),
  };
}

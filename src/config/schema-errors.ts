/**
 * Ajv's errors on a configuration file as people read them: the key path, what is wrong, and
 * for an unknown key the one meant (did you mean) or the protocol it belongs to. The schema is
 * walked by the document itself to know which keys a place allows (a candidate's keys depend on
 * its protocol), because Ajv's schemaPath of a $ref'd definition does not say which one it was.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { didYouMean } from "./suggest.js";

type Schema = { [key: string]: unknown };
export type KeyPath = (string | number)[];

/** One problem: where (key path, and the key itself for an unknown key) and what. */
export interface Problem {
  path: KeyPath;
  key?: string;
  message: string;
}

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);

function resolve(root: Schema, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && current.$ref.startsWith("#/") && hops < 16; hops++) {
    let target: unknown = root;
    for (const part of current.$ref.slice(2).split("/")) target = isSchema(target) ? target[part] : undefined;
    if (!isSchema(target)) break;
    current = target;
  }
  return current;
}

/** The branch of an allOf of if/then that the value's protocol selects (the candidate definition). */
function branch(root: Schema, schema: Schema, value: unknown): Schema {
  const resolved = resolve(root, schema);
  const protocol = isSchema(value) ? value.protocol : undefined;
  for (const part of Array.isArray(resolved.allOf) ? resolved.allOf : []) {
    const when = isSchema(part) && isSchema(part.if) && isSchema(part.if.properties) ? part.if.properties.protocol : undefined;
    if (isSchema(when) && when.const === protocol && isSchema(part.then)) return resolve(root, part.then);
  }
  return resolved;
}

/** The schema that applies at `path` of the document, or undefined. */
export function schemaAt(root: Schema, path: readonly (string | number)[], document: unknown): Schema | undefined {
  let schema = branch(root, root, document);
  let value = document;
  for (const segment of path) {
    value = isSchema(value) || Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const next = typeof segment === "number" ? schema.items : (properties[segment] ?? schema.additionalProperties);
    if (!isSchema(next)) return undefined;
    schema = branch(root, next, value);
  }
  return schema;
}

function keysOf(schema: Schema | undefined): string[] {
  return schema !== undefined && isSchema(schema.properties) ? Object.keys(schema.properties).filter((k) => k !== "$schema") : [];
}

function pathOf(pointer: string): KeyPath {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((part) => {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
  });
}

/** An unknown key: the one meant, or the other protocol it belongs to. */
function unknownKey(root: Schema, path: KeyPath, key: string, document: unknown): string {
  const here = keysOf(schemaAt(root, path, document));
  const candidate = path[0] === "candidates" && typeof path[1] === "number" ? resolveValue(document, path.slice(0, 2)) : undefined;
  const protocol = isSchema(candidate) ? candidate.protocol : undefined;
  if (protocol === "provider" || protocol === "agent-cli") {
    const other = protocol === "provider" ? "agent-cli" : "provider";
    const elsewhere = keysOf(schemaAt(root, ["candidates", 0, ...path.slice(2)], { candidates: [{ ...(candidate as Schema), protocol: other }] }));
    if (elsewhere.includes(key)) return `"${key}" applies to ${other} candidates only (this one is protocol: ${protocol})`;
  }
  const hint = didYouMean(key, here);
  return `unknown key ${JSON.stringify(key)}${hint !== "" || here.length === 0 ? hint : `; the keys here are ${here.join(", ")}`}`;
}

function resolveValue(document: unknown, path: readonly (string | number)[]): unknown {
  let value = document;
  for (const segment of path) value = isSchema(value) || Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}

/** The problems Ajv's errors describe, one per place and cause (if/then wrappers dropped). */
export function schemaProblems(root: Schema, errors: readonly ErrorObject[], document: unknown): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === "if") continue;
    const path = pathOf(error.instancePath);
    const params = error.params as Record<string, unknown>;
    let problem: Problem;
    if (error.keyword === "additionalProperties") {
      const key = String(params.additionalProperty);
      problem = { path: [...path, key], key, message: unknownKey(root, path, key, document) };
    } else if (error.keyword === "required") {
      problem = { path, message: `lacks the required key ${JSON.stringify(params.missingProperty)}` };
    } else if (error.keyword === "enum") {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const value = resolveValue(document, path);
      problem = { path, message: `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}${typeof value === "string" ? didYouMean(value, allowed) : ""}` };
    } else {
      problem = { path, message: error.message ?? "is invalid" };
    }
    const id = `${JSON.stringify(problem.path)} ${problem.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  return problems;
}

import { parseJson, type JsonValue } from "../../../src/core/json/index.js";
import { computeInputDigest } from "../../../src/core/provider/digest.js";
import type { JsonObject } from "../../../src/core/provider/types.js";
import { kitSchema } from "../../../src/core/schema.js";
import type { ProviderCase, ProviderFuzzContext } from "../../../src/fuzz/types.js";

export const ctx: ProviderFuzzContext = {
  operations: [
    { name: "check", events: ["tool.before", "tool.after"], effects: ["observe", "block"] },
    { name: "redact", events: ["tool.after"], effects: ["observe", "replace_result"] },
  ],
  config: { blocked_tools: ["example_tool"] },
  configRevision: "a".repeat(64),
  budgetMs: 5000,
};

export const schema = kitSchema("provider/request.schema.json");
export const issues = (c: ProviderCase): string[] => parseJson(c.bytes).issues.map((i) => i.kind);
export const text = (c: ProviderCase): string => Buffer.from(c.bytes).toString("utf8");

/** The input_digest the bytes carry equals the one computed over them. */
export function digestMatches(c: ProviderCase): boolean {
  const value = parseJson(c.bytes, { numbers: "lossless" }).value as JsonObject;
  return value.input_digest === computeInputDigest(c.bytes);
}

export const tool = (c: ProviderCase): JsonObject => ((c.value as JsonObject).event as JsonObject).tool as JsonObject;
export const event = (c: ProviderCase): JsonObject => (c.value as JsonObject).event as JsonObject;

/** Every string anywhere in a value (keys included). */
export function strings(value: JsonValue): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)]);
  return [];
}

export const codePoints = (s: string): number => [...s].length;

/** A valid case is exactly what it claims: schema-valid, strictly parseable, correctly bound. */
export function isValidCase(c: ProviderCase): boolean {
  return (
    c.kind === "valid" &&
    c.purpose === "invoke" &&
    c.value !== undefined &&
    schema(c.value) &&
    parseJson(c.bytes).ok &&
    c.value.input_digest === computeInputDigest(c.bytes) &&
    c.requestId === c.value.request_id &&
    c.budgetMs === ctx.budgetMs
  );
}

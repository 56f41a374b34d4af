import type { ValidateFunction } from "ajv/dist/2020.js";
import fc from "fast-check";
import { generateSync, type JsonSchema } from "json-schema-faker";
import { integerInRange, serdeReadsExactly, type JsonValue } from "../../core/json/index.js";
import { kitAjv } from "../../core/schema.js";

const ANY: JsonSchema = { type: ["null", "boolean", "integer", "number", "string", "array", "object"] };

/** Small schemas json-schema-faker fills; every result is checked against its schema and the wire rules. */
export const NATIVE_SCHEMAS: readonly JsonSchema[] = [
  { type: "object" },
  {
    type: "object",
    required: ["source", "event"],
    properties: {
      source: { type: "string", minLength: 1, maxLength: 32 },
      event: { enum: ["PreToolUse", "PostToolUse", "tool_call", "tool_result", "before_tool"] },
      tool_use_id: { type: "string", pattern: "^toolu_[A-Za-z0-9]{8,24}$" },
      ts: { type: "integer", minimum: 0, maximum: 4102444800000 },
      args: { type: "array", items: ANY, maxItems: 4 },
    },
    additionalProperties: ANY,
    maxProperties: 8,
  },
];

export const VALUE_SCHEMAS: readonly JsonSchema[] = [
  { type: "object" },
  ANY,
  { type: "object", minProperties: 1, maxProperties: 5, additionalProperties: ANY },
  {
    type: "object",
    required: ["command"],
    properties: {
      command: { type: "string", minLength: 1, maxLength: 80 },
      timeout: { type: "integer", minimum: 1, maximum: 600000 },
      args: { type: "array", items: { type: "string" }, maxItems: 6 },
      env: { type: "object", additionalProperties: { type: "string" }, maxProperties: 3 },
    },
    additionalProperties: false,
  },
  // json-schema-faker ignores oneOf exclusivity: objects with both keys are retried.
  {
    oneOf: [
      { type: "object", required: ["path"], properties: { path: { type: "string" }, line: { type: "integer" } } },
      { type: "object", required: ["pattern"], properties: { pattern: { type: "string" }, path: { type: "string" } } },
    ],
  },
  // Integers across the whole i64/u64 span (doubles that round past u64 max are retried) and huge
  // doubles (a span of ±1.8e308 overflows json-schema-faker to Infinity, hence ±8e307).
  {
    type: "object",
    required: ["wide", "real"],
    properties: {
      wide: { type: "integer", minimum: -9223372036854775808, maximum: 18446744073709551615 },
      real: { type: "number", minimum: -8e307, maximum: 8e307 },
    },
  },
];

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * True when `value` is plain JSON the upstream reader accepts and reads back unchanged: finite
 * numbers serde_json reads exactly, integer tokens within i64 (negative) / u64, well-formed
 * strings, plain arrays and objects.
 */
export function isWireSafe(value: unknown): value is JsonValue {
  if (value === null || typeof value === "boolean") return true;
  if (typeof value === "string") return !LONE_SURROGATE.test(value);
  if (typeof value === "bigint") return integerInRange(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return false;
    // JavaScript writes integral doubles below 1e21 as integer tokens.
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return isWireSafe(BigInt(value));
    // serde_json's reader is not correctly rounded: a Provider built on it would read another
    // double (and hash another digest) for about one random double in three.
    return serdeReadsExactly(value);
  }
  if (Array.isArray(value)) return value.every(isWireSafe);
  const proto: unknown = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    return Object.entries(value as object).every(([key, item]) => !LONE_SURROGATE.test(key) && isWireSafe(item));
  }
  return false;
}

const validators = new Map<JsonSchema, ValidateFunction>();

function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = kitAjv().compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const ATTEMPTS = 8;

/**
 * json-schema-faker's value for `schema` from `seed`, retried with derived seeds until it
 * matches the schema and the wire rules; `fallback` if no attempt does.
 */
export function fakeValue(schema: JsonSchema, seed: number, fallback: JsonValue): JsonValue {
  const validate = validatorFor(schema);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let raw: unknown;
    try {
      raw = generateSync(schema, { seed: (seed + attempt * 7919) % 2_147_483_647, maxDepth: 4, maxDefaultItems: 4 });
    } catch {
      continue;
    }
    if (validate(raw) && isWireSafe(raw)) return raw;
  }
  return fallback;
}

/**
 * A value from one of the schemas, seeded from fast-check integers (same fast-check seed, same
 * value). The faker's seed does not shrink: a smaller seed gives no simpler value, and walking
 * it down costs a candidate call per step.
 */
export function fakeArb(schemas: readonly JsonSchema[], fallback: JsonValue): fc.Arbitrary<JsonValue> {
  return fc
    .record({ schema: fc.nat({ max: schemas.length - 1 }), seed: fc.noShrink(fc.nat({ max: 2_147_483_646 })) })
    .map(({ schema, seed }) => fakeValue(schemas[schema] as JsonSchema, seed, fallback));
}

/** An event.native object from json-schema-faker; it shrinks to {} first. */
export const nativeArb: fc.Arbitrary<{ [key: string]: JsonValue }> = fc.oneof(
  { withCrossShrink: true },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 7, arbitrary: fakeArb(NATIVE_SCHEMAS, {}).map((value) => (value !== null && typeof value === "object" && !Array.isArray(value) ? value : {})) },
);

import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { parseJson, type JsonValue } from "../../../src/core/json/index.js";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Integers JSON.stringify writes as plain digits but which do not fit i64/u64. */
function hasOutOfRangeInteger(v: unknown): boolean {
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) < 1e21 && (v >= 2 ** 64 || v < -(2 ** 63));
  if (Array.isArray(v)) return v.some(hasOutOfRangeInteger);
  if (typeof v === "object" && v !== null) return Object.values(v).some(hasOutOfRangeInteger);
  return false;
}

describe("parseJson properties", () => {
  test.prop([fc.jsonValue({ maxDepth: 8 })], { numRuns: 300 })("agrees with JSON.parse on JSON.stringify output", (v) => {
    const text = JSON.stringify(v);
    const result = parseJson(text);
    expect(result.value).toEqual(JSON.parse(text));
    expect(result.end).toBe(new TextEncoder().encode(text).length);
    expect(result.ok).toBe(!hasOutOfRangeInteger(v));
    expect(result.issues.every((i) => i.kind === "integer-range")).toBe(true);
  });

  test.prop([fc.jsonValue({ maxDepth: 5, stringUnit: "grapheme" })], { numRuns: 200 })(
    "agrees with JSON.parse on unicode text, pretty-printed, from bytes",
    (v) => {
      const text = JSON.stringify(v, null, "\t");
      const result = parseJson(new TextEncoder().encode(text));
      expect(result.value).toEqual(JSON.parse(text));
      expect(result.ok).toBe(!hasOutOfRangeInteger(v));
    },
  );

  test.prop([fc.string({ unit: "binary" })])("decodes escaped and raw strings like JSON.parse", (s) => {
    // JSON.stringify escapes lone surrogates, so those are the only expected issues.
    const result = parseJson(JSON.stringify(s));
    expect(result.value).toBe(s);
    expect(result.issues.every((i) => i.kind === "lone-surrogate")).toBe(true);
    expect(result.ok).toBe(!LONE_SURROGATE.test(s));
  });

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })])("reads every double exactly", (x) => {
    const value = parseJson(String(x)).value as number;
    expect(Object.is(value, x) || (x === 0 && value === 0)).toBe(true);
  });

  test.prop([
    fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
    fc.integer({ min: 0, max: 20 }),
    fc.integer({ min: -40, max: 40 }),
    fc.boolean(),
  ])("rounds decimal tokens exactly like Number()", (mantissa, point, exp, withExp) => {
    const digits = (mantissa < 0n ? -mantissa : mantissa).toString().padStart(point + 1, "0");
    const sign = mantissa < 0n ? "-" : "";
    const token = `${sign}${digits.slice(0, digits.length - point)}${point > 0 ? "." + digits.slice(-point) : ""}${withExp ? `e${exp}` : ""}`;
    const result = parseJson(token);
    expect(Object.is(result.value, Number(token))).toBe(true);
    const lossless = parseJson(token, { numbers: "lossless" }).value;
    if (point === 0 && !withExp) expect(lossless).toBe(mantissa);
    else expect(Object.is(lossless, Number(token))).toBe(true);
  });

  const fragment = fc.constantFrom(..."[]{}:, \n".split(""), '"a"', '"\\u0041"', "1", "-", "0", ".5", "e3", "true", "nul", '"x', "\\");
  test.prop([fc.array(fragment, { maxLength: 24 })], { numRuns: 500 })("accepts and rejects exactly what JSON.parse does", (parts) => {
    const text = parts.join("");
    let expected: { value: unknown } | undefined;
    try {
      expected = { value: JSON.parse(text) };
    } catch {
      expected = undefined;
    }
    const result = parseJson(text);
    const rejected = result.issues.some((i) => i.kind === "syntax" || i.kind === "empty" || i.kind === "trailing-data");
    expect(rejected).toBe(expected === undefined);
    if (expected !== undefined) expect(result.value).toEqual(expected.value);
  });

  test.prop([fc.uint8Array({ maxLength: 64 })])("never throws on arbitrary bytes and stays consistent", (bytes) => {
    const result = parseJson(bytes);
    expect(result.ok).toBe(result.issues.length === 0);
    const fatal = result.issues.some((i) => i.kind === "syntax" || i.kind === "empty");
    expect(result.value === undefined).toBe(fatal);
    for (const issue of result.issues) {
      expect(issue.offset).toBeGreaterThanOrEqual(0);
      expect(issue.offset).toBeLessThanOrEqual(bytes.length);
    }
    const offsets = result.issues.map((i) => i.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    if (result.ok) {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      expect(result.value as JsonValue).toEqual(JSON.parse(text));
    }
  });
});

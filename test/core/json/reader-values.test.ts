import { describe, expect, it } from "vitest";
import { parseJson } from "../../../src/core/json/index.js";
import { where } from "./helpers.js";

const nest = (n: number, inner: string): string => "[".repeat(n) + inner + "]".repeat(n);
const zeros = (n: number): string => "/0".repeat(n);

describe("parseJson: depth", () => {
  it("allows 32 arrays around a scalar (scalar at depth 32)", () => {
    expect(parseJson(nest(32, "1")).ok).toBe(true);
  });

  it("rejects 33 arrays around a scalar, once, at the scalar", () => {
    const result = parseJson(nest(33, "1"));
    expect(result.value).toEqual(JSON.parse(nest(33, "1")));
    expect(result.issues).toEqual([expect.objectContaining({ kind: "depth", offset: 33, column: 34, path: zeros(33) })]);
  });

  it("allows 33 arrays whose innermost is empty (it sits at depth 32)", () => {
    expect(parseJson(nest(33, "")).ok).toBe(true);
    expect(where(parseJson(nest(34, "")))).toEqual(["depth@33:1:34"]);
  });

  it("counts objects too and reports only the first deep value", () => {
    const deepObject = '{"a":'.repeat(33) + "1" + "}".repeat(33);
    expect(parseJson(deepObject).issues).toEqual([
      expect.objectContaining({ kind: "depth", offset: 5 * 33, path: "/a".repeat(33) }),
    ]);
    expect(where(parseJson('[[1,2],[3,[4]]]', { maxDepth: 1 }))).toEqual(["depth@2:1:3"]);
  });

  it("honours maxDepth 0 (only a scalar or empty container at the root)", () => {
    expect(parseJson("1", { maxDepth: 0 }).ok).toBe(true);
    expect(parseJson("[]", { maxDepth: 0 }).ok).toBe(true);
    expect(parseJson("{}", { maxDepth: 0 }).ok).toBe(true);
    expect(where(parseJson('{"a":1}', { maxDepth: 0 }))).toEqual(["depth@5:1:6"]);
  });

  it("survives 1,000,000 opening brackets without recursion", () => {
    const result = parseJson("[".repeat(1_000_000));
    expect(result.value).toBeUndefined();
    expect(result.end).toBe(1_000_000);
    expect(where(result)).toEqual(["depth@33:1:34", "syntax@1000000:1:1000001"]);
    expect(result.issues[0]!.path).toBe(zeros(33));
  });

  it("builds a 100,000-deep value without recursion", () => {
    const result = parseJson(nest(100_000, "null"), { maxBytes: 1e6 });
    expect(where(result)).toEqual(["depth@33:1:34"]);
    let v: unknown = result.value;
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect([depth, v]).toEqual([100_000, null]);
  });
});

describe("parseJson: integer range", () => {
  it.each([
    ["18446744073709551615", true],
    ["18446744073709551616", false],
    ["99999999999999999999", false],
    ["100000000000000000000", false],
    ["-9223372036854775808", true],
    ["-9223372036854775809", false],
    ["-18446744073709551615", false],
    ["9223372036854775808", true],
    ["0", true],
    ["-0", true],
  ])("%s ok=%s", (token, ok) => {
    for (const numbers of ["number", "lossless"] as const) {
      const result = parseJson(`[${token}]`, { numbers });
      expect(result.ok).toBe(ok);
      if (!ok) expect(result.issues).toEqual([expect.objectContaining({ kind: "integer-range", offset: 1, path: "/0" })]);
      expect(result.value).toHaveLength(1);
    }
  });

  it("accepts big numbers that are quoted, fractional or exponential", () => {
    expect(parseJson('"18446744073709551616"').ok).toBe(true);
    expect(parseJson("18446744073709551616.0").ok).toBe(true);
    expect(parseJson("1.8446744073709551616e19").ok).toBe(true);
    expect(parseJson("1e19").ok).toBe(true);
  });
});

describe("parseJson: non-finite numbers", () => {
  it("reports 1e400 and friends, keeping the value", () => {
    const result = parseJson("1e400");
    expect(result).toMatchObject({ ok: false, value: Infinity, end: 5 });
    expect(where(result)).toEqual(["non-finite-number@0:1:1"]);
    expect(parseJson('{"x":[-1.5e999]}').issues).toEqual([
      expect.objectContaining({ kind: "non-finite-number", offset: 6, path: "/x/0" }),
    ]);
    expect(where(parseJson("1" + "0".repeat(400) + ".0"))).toEqual(["non-finite-number@0:1:1"]);
  });

  it("accepts underflow and the largest finite values", () => {
    expect(parseJson("1e-400")).toMatchObject({ ok: true, value: 0 });
    expect(Object.is(parseJson("-1e-400").value, -0)).toBe(true);
    expect(parseJson("1.7976931348623157e308")).toMatchObject({ ok: true, value: Number.MAX_VALUE });
    expect(parseJson("5e-324")).toMatchObject({ ok: true, value: Number.MIN_VALUE });
  });
});

describe("parseJson: number values", () => {
  it("gives JS numbers by default, like JSON.parse", () => {
    const text = "[0,-0,1,-1,1.5,-2.25e-3,1E2,1e+2,123456789012345678,0.1,3.141592653589793,9007199254740993]";
    const result = parseJson(text);
    expect(result.ok).toBe(true);
    expect(result.value).toEqual(JSON.parse(text));
    expect(Object.is((result.value as number[])[1], -0)).toBe(true);
  });

  it("gives bigint for integer tokens in lossless mode, except -0", () => {
    const text = "[0,-0,7,-7,18446744073709551615,-9223372036854775808,1.5,1e2,-0.0,123456789012345678]";
    const value = parseJson(text, { numbers: "lossless" }).value as unknown[];
    expect(value).toEqual([0n, -0, 7n, -7n, 18446744073709551615n, -9223372036854775808n, 1.5, 100, -0, 123456789012345678n]);
    expect(Object.is(value[1], -0)).toBe(true);
    expect(Object.is(value[8], -0)).toBe(true);
    expect(parseJson("-00", { numbers: "lossless" }).issues[0]).toMatchObject({ kind: "syntax", offset: 2 });
  });

  it("keeps out-of-range integers as bigint in lossless mode (with the issue)", () => {
    const result = parseJson("-9223372036854775809", { numbers: "lossless" });
    expect(result.value).toBe(-9223372036854775809n);
    expect(where(result)).toEqual(["integer-range@0:1:1"]);
  });
});

describe("parseJson: values", () => {
  it("parses every kind of value", () => {
    const text = '{"s":"a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9z","n":null,"t":true,"f":false,"a":[],"o":{},"e":""}';
    expect(parseJson(text)).toEqual({ ok: true, value: JSON.parse(text), end: text.length, issues: [] });
  });

  it("decodes long strings with many escapes exactly", () => {
    const value = "x".repeat(5000) + "\n\u0001é😀\"".repeat(3000) + "\\u".repeat(10000) + "y";
    const text = JSON.stringify({ value, esc: "\\u0041".repeat(20000) });
    expect(parseJson(text).value).toEqual(JSON.parse(text));
    const units = JSON.stringify("\u0001".repeat(20000)); // one escape run of 20000 \u escapes
    expect(parseJson(units).value).toBe("\u0001".repeat(20000));
  });

  it("reports end just after the document", () => {
    expect(parseJson("  [1, 2]  ").end).toBe(8);
    expect(parseJson("-12.5e3").end).toBe(7);
  });
});

import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalReadBack, formatF64, parseJson, wireJson, type JsonValue } from "../../../src/core/json/index.js";

describe("canonicalJson: numbers as serde_json/ryu writes f64", () => {
  it.each([
    [1, "1.0"],
    [0.29, "0.29"],
    [1.25, "1.25"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e16"],
    [1e-5, "0.00001"],
    [1.23e-5, "0.0000123"],
    [1e-6, "1e-6"],
    [1e-7, "1e-7"],
    [1.5e-7, "1.5e-7"],
    [123456.789, "123456.789"],
    [5e-324, "5e-324"],
    [2.2250738585072014e-308, "2.2250738585072014e-308"],
    [1.7976931348623157e308, "1.7976931348623157e308"],
    [-0, "-0.0"],
    [0, "0.0"],
    [100, "100.0"],
    [-1.5, "-1.5"],
    [0.1 + 0.2, "0.30000000000000004"],
    [1e21, "1e21"],
    [1.23e22, "1.23e22"],
    [9007199254740992, "9007199254740992.0"],
    [12345678901234567890, "1.2345678901234567e19"],
    [123456789012345.6, "123456789012345.6"],
    [-1e-10, "-1e-10"],
  ])("%s → %s", (x, expected) => {
    expect(canonicalJson(x)).toBe(expected);
    expect(formatF64(x)).toBe(expected);
  });

  it("writes bigint as integers", () => {
    expect(canonicalJson(100n)).toBe("100");
    expect(canonicalJson([-5n, 0n, 18446744073709551615n])).toBe("[-5,0,18446744073709551615]");
  });

  it("throws on non-finite numbers", () => {
    expect(() => canonicalJson(Infinity)).toThrow();
    expect(() => canonicalJson([-Infinity])).toThrow();
    expect(() => canonicalJson({ a: NaN })).toThrow();
  });

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })])("round-trips every finite double in ryu's shape", (x) => {
    const s = formatF64(x);
    expect(Object.is(Number(s), x)).toBe(true);
    expect(s).toMatch(/^-?(\d+\.\d+|\d(\.\d+)?e-?\d+)$/);
  });
});

describe("canonicalJson: objects and strings", () => {
  it("sorts keys by code point, not UTF-16 unit", () => {
    const value = { b: 1n, a: 2n, "\ufffd": 3n, "\u{1f600}": 4n, é: 5n, Z: 6n };
    expect(canonicalJson(value)).toBe('{"Z":6,"a":2,"b":1,"é":5,"\ufffd":3,"\u{1f600}":4}');
    // JavaScript's default sort puts the astral key first.
    expect(Object.keys(value).sort().indexOf("\u{1f600}")).toBeLessThan(Object.keys(value).sort().indexOf("\ufffd"));
  });

  it("sorts nested objects, keeps array order, and is compact", () => {
    const value = { b: [3n, 1.5, null, true, false, "x"], a: { d: {}, c: [] } };
    expect(canonicalJson(value)).toBe('{"a":{"c":[],"d":{}},"b":[3,1.5,null,true,false,"x"]}');
  });

  it("sorts shorter prefixes first and handles __proto__ own keys", () => {
    const parsed = parseJson('{"ab":1,"a":2,"__proto__":3,"":4}', { numbers: "lossless" }).value!;
    expect(canonicalJson(parsed)).toBe('{"":4,"__proto__":3,"a":2,"ab":1}');
  });

  it("escapes strings the serde_json way", () => {
    const s = '"\\\b\f\n\r\t\u0000\u0001\u001f\u007f/é😀\u2028';
    expect(canonicalJson(s)).toBe('"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u0001\\u001f\u007f/é😀\u2028"');
    expect(canonicalJson("\u001b[0m")).toBe('"\\u001b[0m"');
    expect(canonicalJson({ "k\n": "plain" })).toBe('{"k\\n":"plain"}');
  });

  it("throws on lone surrogates in values and keys", () => {
    expect(() => canonicalJson("a\ud800")).toThrow(/lone surrogate/);
    expect(() => canonicalJson(["\udc00b"])).toThrow(/lone surrogate/);
    expect(() => canonicalJson({ "\ud83d": 1n })).toThrow(/lone surrogate/);
    expect(canonicalJson("\ud83d\ude00")).toBe('"😀"');
  });

  it("handles very deep values without overflowing", () => {
    let v: JsonValue = 1n;
    for (let k = 0; k < 50_000; k++) v = k % 2 === 0 ? [v] : { k: v };
    const s = canonicalJson(v);
    expect(s.length).toBe(1 + 50_000 * 2 + 25_000 * 4);
  });

  test.prop([fc.jsonValue({ maxDepth: 6, stringUnit: "grapheme" })])("re-reads to the same value and is idempotent", (v) => {
    const text = canonicalJson(v as JsonValue);
    expect(JSON.parse(text)).toEqual(v);
    // Canonical numbers always carry '.' or 'e', so even lossless mode reads them back as f64.
    const reread = parseJson(text, { numbers: "lossless" });
    expect(reread.issues).toEqual([]);
    expect(canonicalJson(reread.value!)).toBe(text);
  });
});

describe("canonicalReadBack: canonicalJson of what the kit's reader reads back from the wire text", () => {
  const readBack = (v: JsonValue): string => {
    const parsed = parseJson(wireJson(v), { numbers: "lossless", floats: "serde_json" });
    if (parsed.value === undefined) throw new Error("did not parse back");
    return canonicalJson(parsed.value);
  };
  it("writes integers as they read back: safe integers as their digits, -0 as 0, past 2^53 by their token", () => {
    expect(canonicalReadBack({ a: 0, b: -0, c: 7, d: -9007199254740991, e: 9007199254740993n })).toBe('{"a":0,"b":0,"c":7,"d":-9007199254740991,"e":9007199254740993}');
    // 2^53 is written 9007199254740992, an integer token within i64: read back as that integer, not as a float.
    expect(canonicalReadBack(9007199254740992)).toBe("9007199254740992");
    expect(canonicalReadBack(1e21)).toBe("1e21");
  });
  test.prop([fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }))])("equals reading the wire text back, for every number", (x) => {
    expect(canonicalReadBack([x])).toBe(readBack([x]));
  });
});

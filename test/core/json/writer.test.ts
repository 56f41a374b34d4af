import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { parseJson, wireJson, type JsonValue } from "../../../src/core/json/index.js";

describe("wireJson", () => {
  it("writes compact JSON like JSON.stringify, keys in insertion order", () => {
    const value = { b: 1, a: [1, "x", null, true, false, -0, 1.5, 1e21, 1e-7], "2": "two", "": {} };
    expect(wireJson(value)).toBe(JSON.stringify(value));
    expect(wireJson(value)).toBe('{"2":"two","b":1,"a":[1,"x",null,true,false,0,1.5,1e+21,1e-7],"":{}}');
  });

  it("writes bigint as decimal digits", () => {
    expect(wireJson([1n, -2n, 18446744073709551616n])).toBe("[1,-2,18446744073709551616]");
    expect(wireJson(5n)).toBe("5");
  });

  it("escapes strings like JSON.stringify, lone surrogates as \\udXXX", () => {
    expect(wireJson("\ud800")).toBe('"\\ud800"');
    expect(wireJson({ "\udc00": "a\u0000\u001f\u007f\u2028😀\"\\" })).toBe(
      '{"\\udc00":"a\\u0000\\u001f\u007f\u2028😀\\"\\\\"}',
    );
  });

  it("writes a __proto__ own key", () => {
    const parsed = parseJson('{"__proto__":{"x":1},"y":2}').value!;
    expect(wireJson(parsed)).toBe('{"__proto__":{"x":1},"y":2}');
    const built: Record<string, JsonValue> = {};
    Object.defineProperty(built, "__proto__", { value: [1], enumerable: true, writable: true, configurable: true });
    expect(wireJson(built)).toBe('{"__proto__":[1]}');
  });

  it("throws on non-finite numbers, cycles and non-JSON values", () => {
    expect(() => wireJson(NaN)).toThrow(RangeError);
    expect(() => wireJson({ a: [Infinity] })).toThrow(RangeError);
    const cyclic: JsonValue[] = [];
    cyclic.push(cyclic);
    expect(() => wireJson(cyclic)).toThrow(/cyclic/);
    expect(() => wireJson([undefined as unknown as JsonValue])).toThrow(TypeError);
  });

  it("allows shared (non-cyclic) substructures", () => {
    const shared = { x: [1] };
    expect(wireJson([shared, shared])).toBe('[{"x":[1]},{"x":[1]}]');
  });

  it("handles values nested 10,000+ deep", () => {
    let v: JsonValue = null;
    for (let k = 0; k < 20_000; k++) v = k % 2 === 0 ? [v] : { k: v };
    const text = wireJson(v);
    expect(text.startsWith('{"k":[{"k":[')).toBe(true);
    const reread = parseJson(text, { maxBytes: 1e6, maxDepth: 20_000 });
    expect(reread.ok).toBe(true);
    expect(wireJson(reread.value!)).toBe(text); // (deep-equality helpers would recurse too deep here)
  });

  it("round-trips through parseJson, including bigint in lossless mode", () => {
    const value = { id: 18446744073709551615n, neg: -9223372036854775808n, f: 0.5, s: "é\n\u{1f600}", a: [[], {}, null] };
    const text = wireJson(value);
    expect(parseJson(text, { numbers: "lossless" })).toEqual({ ok: true, value, end: new TextEncoder().encode(text).length, issues: [] });
  });

  test.prop([fc.jsonValue({ maxDepth: 6, stringUnit: "binary" })])("equals JSON.stringify for plain JSON values", (v) => {
    expect(wireJson(v as JsonValue)).toBe(JSON.stringify(v));
  });

  test.prop([fc.jsonValue({ maxDepth: 6, stringUnit: "grapheme" })])("round-trips through parseJson", (v) => {
    const result = parseJson(wireJson(v as JsonValue));
    expect(result.value).toEqual(JSON.parse(JSON.stringify(v)));
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundaryInteger } from "../../../src/fuzz/provider/boundary.js";
import { fakeValue, isWireSafe, VALUE_SCHEMAS } from "../../../src/fuzz/provider/jsf.js";
import { nest, nestingOf } from "../../../src/fuzz/provider/values.js";
import { kitAjv } from "../../../src/core/schema.js";

describe("generator building blocks", () => {
  it("accepts only values the upstream reader accepts", () => {
    for (const ok of [null, true, 0, -1, 0.1, 1e21, 5e-324, 18446744073709551615n, -9223372036854775808n, "\u{1F600}", { a: [1, "x"] }]) expect(isWireSafe(ok)).toBe(true);
    // 1e-307 and 4.2e30 are doubles serde_json's best-effort reader reads one step off.
    for (const bad of [Infinity, NaN, 1e-307, 4.2e30, 2 ** 64, -(2 ** 63) - 4096, 18446744073709551616n, "\ud800", { "\udc00": 1 }, undefined, new Date(0), [() => 1]]) expect(isWireSafe(bad)).toBe(false);
  });

  it("takes json-schema-faker values that match their schema, the same for the same seed", () => {
    for (const schema of VALUE_SCHEMAS) {
      const validate = kitAjv().compile(schema);
      for (let seed = 0; seed < 50; seed++) {
        const value = fakeValue(schema, seed, "fallback");
        expect(value).not.toBe("fallback");
        expect(validate(value) && isWireSafe(value)).toBe(true);
        expect(fakeValue(schema, seed, "fallback")).toEqual(value);
      }
    }
  });

  it("boundary integers shrink past their specials to the smallest failing value", () => {
    const arb = boundaryInteger(1, 1024, [1024], 100);
    expect(fc.sample(arb, { seed: 1, numRuns: 20 }).every((n) => n === 1024)).toBe(true);
    const result = fc.check(fc.property(arb, (n) => n < 201), { seed: 1 });
    expect(result.counterexample).toEqual([201]);
    const ranged = fc.sample(boundaryInteger(0, 100, [[10, 20]], 100), { seed: 1, numRuns: 50 });
    expect(ranged.every((n) => n >= 10 && n <= 20)).toBe(true);
  });

  it("measures nesting as the containers on the deepest path", () => {
    expect(nestingOf(1)).toBe(0);
    expect(nestingOf([])).toBe(1);
    expect(nestingOf(nest(29, "x", "mixed"))).toBe(29);
    expect(nestingOf({ a: [1, [2, { b: null }]], c: 1 })).toBe(4);
  });
});

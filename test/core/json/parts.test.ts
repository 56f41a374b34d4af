import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonParts, canonicalReadBack, canonicalReadBackParts, utf8Join, wireBytes, wireJson, type JsonValue } from "../../../src/core/json/index.js";
import { LONG_STRING, serializeParts, writtenAsIs } from "../../../src/core/json/serialize.js";

const encoder = new TextEncoder();

/** A string of LONG_STRING code units or a few more, of one filler, with at most one other character somewhere in it. */
const longString = fc
  .record({
    filler: fc.constantFrom("x", "é", "😀"),
    extra: fc.nat(64),
    odd: fc.option(fc.constantFrom('"', "\\", "\n", "\u0000", "\u001f", "\u007f", "\u2028", "\ud800", "\udc00", "😀", "é"), { nil: undefined }),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ filler, extra, odd, at }) => {
    const plain = filler.repeat(Math.ceil((LONG_STRING + extra) / filler.length));
    if (odd === undefined) return plain;
    const cut = Math.floor(at * plain.length);
    return plain.slice(0, cut) + odd + plain.slice(cut);
  });

/** JSON values where some strings, values and keys, are long. */
const withLongStrings: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.string(), longString, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string(), longString), tie("value"), { maxKeys: 3 }),
  ),
})).value;

describe("serializeParts: serialize's text in parts, long plain strings as parts of their own", () => {
  it("hands a long plain string value on as it is, the text around it before and after", () => {
    const long = "x".repeat(LONG_STRING);
    const parts = serializeParts({ a: long, b: [1] }, { keys: Object.keys, string: (s) => JSON.stringify(s), number: String, plain: writtenAsIs });
    expect(parts).toHaveLength(3);
    expect(parts[0]).toBe('{"a":"');
    expect(parts[1]).toBe(long);
    expect(parts[2]).toBe('","b":[1]}');
  });

  it("writes a shorter string, a long string that needs escapes, and a long key into the text", () => {
    const short = "x".repeat(LONG_STRING - 1);
    const quoted = `${"x".repeat(LONG_STRING)}"`;
    expect(serializeParts([short, quoted], { keys: Object.keys, string: (s) => JSON.stringify(s), number: String, plain: writtenAsIs })).toEqual([JSON.stringify([short, quoted])]);
    const key = "k".repeat(LONG_STRING);
    expect(wireBytes({ [key]: 1 })).toEqual(encoder.encode(JSON.stringify({ [key]: 1 })));
  });

  test.prop([withLongStrings], { numRuns: 40 })("joined, they are the text: wire bytes, canonical and read-back text", (value) => {
    expect(Buffer.from(wireBytes(value)).equals(Buffer.from(encoder.encode(wireJson(value))))).toBe(true);
    let canonical: string | undefined;
    try {
      canonical = canonicalJson(value);
    } catch {
      // A lone surrogate: the parts refuse it too.
      expect(() => canonicalJsonParts(value)).toThrow();
    }
    if (canonical !== undefined) {
      expect(canonicalJsonParts(value).join("")).toBe(canonical);
      expect(canonicalReadBackParts(value).join("")).toBe(canonicalReadBack(value));
    }
  });
});

describe("writtenAsIs", () => {
  it("says whether JSON.stringify and serde_json write a string as itself between quotes", () => {
    for (const s of ["", "abc", "é", "\u007f", "\u2028"]) expect(writtenAsIs(s)).toBe(true);
    for (const s of ['"', "\\", "\n", "\u0000", "\u001f", "\ud800", "😀".slice(0, 1)]) expect(writtenAsIs(s)).toBe(false);
    // Any surrogate, paired too, is left to the style's own writer (which knows a lone one from a pair).
    expect(writtenAsIs("😀")).toBe(false);
  });

  it("answers for a long string's contents, not for the last long string it looked at", () => {
    const plain = "x".repeat(LONG_STRING + 10);
    const quoted = `${"x".repeat(LONG_STRING + 9)}"`;
    const copy = "x".repeat(LONG_STRING + 5) + "x".repeat(5);
    for (let round = 0; round < 2; round++) {
      expect(writtenAsIs(plain)).toBe(true);
      expect(writtenAsIs(quoted)).toBe(false);
      expect(writtenAsIs(copy)).toBe(true);
      expect(writtenAsIs(quoted)).toBe(false);
    }
  });
});

describe("utf8Join", () => {
  it("is the UTF-8 of the parts one after another, in a plain Uint8Array", () => {
    const joined = utf8Join(["a", "é", "😀", "", "\ud800"]);
    expect(joined.constructor).toBe(Uint8Array);
    expect(Buffer.from(joined).equals(Buffer.from(encoder.encode("aé😀\ud800")))).toBe(true);
  });
});

import fc from "fast-check";
import type { JsonValue } from "../../core/json/index.js";

/** A generated value with what is special about it ("tool name of 1024 chars"), if anything. */
export interface Labelled<T> {
  value: T;
  label?: string;
}

export function labelled<T>(value: T, label?: string): Labelled<T> {
  return label === undefined ? { value } : { value, label };
}

/** A special value, or an inclusive range of them. */
export type Special = number | readonly [number, number];

/**
 * An integer in [min, max] drawn from `specials` (single values or ranges) `share` percent of the
 * time. It shrinks like fc.integer toward `min` whichever way it was generated, so a failure found
 * at a boundary (1024) still shrinks to the smallest failing value (201), not to another constant.
 */
class BoundaryInteger extends fc.Arbitrary<number> {
  private readonly inner: fc.Arbitrary<number>;
  constructor(
    private readonly min: number,
    private readonly max: number,
    private readonly specials: readonly (readonly [number, number])[],
    private readonly share: number,
  ) {
    super();
    this.inner = fc.integer({ min, max });
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<number> {
    if (this.specials.length > 0 && mrng.nextInt(0, 99) < this.share) {
      const [low, high] = this.specials[mrng.nextInt(0, this.specials.length - 1)] as readonly [number, number];
      return new fc.Value(low === high ? low : mrng.nextInt(low, high), undefined);
    }
    return this.inner.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is number {
    return typeof value === "number" && Number.isInteger(value) && value >= this.min && value <= this.max;
  }

  shrink(value: number, context: unknown): fc.Stream<fc.Value<number>> {
    return this.inner.shrink(value, context);
  }
}

export function boundaryInteger(min: number, max: number, specials: readonly Special[], share = 50): fc.Arbitrary<number> {
  const ranges = specials
    .map((s): readonly [number, number] => (typeof s === "number" ? [s, s] : s))
    .map(([low, high]): readonly [number, number] => [Math.max(low, min), Math.min(high, max)])
    .filter(([low, high]) => low <= high);
  return new BoundaryInteger(min, max, ranges, share);
}

/** Letters first, so alphabets shrink toward plain ASCII. */
const ASCII_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."];

/**
 * One code point each: astral (emoji, math letter, the last scalar value), RTL override,
 * combining acute, NUL, line/paragraph separators, quote, backslash, BOM, a control
 * character, CJK, Latin-1, and a slash.
 */
export const SPECIAL_CHARS: readonly string[] = [
  "\u{1F600}", "\u{1D518}", "\u{10FFFF}", "\u202E", "\u0301", "\u0000", "\u2028", "\u2029",
  '"', "\\", "\uFEFF", "\u001F", "\u4E2D", "\u00E9", "/",
];

const charArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ASCII_CHARS) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_CHARS) },
);

/**
 * `arb`, shrinking to `simplest` in one step first: a failure that does not depend on the
 * characters or members (most size bugs) then costs one candidate call there, not one per
 * character.
 */
export function simplestFirst<T>(simplest: T, arb: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return fc.oneof({ withCrossShrink: true }, { weight: 1, arbitrary: fc.constant(simplest) }, { weight: 9, arbitrary: arb });
}

/** A small alphabet of whole code points; strings cycle through it. */
export const alphabetArb: fc.Arbitrary<string[]> = simplestFirst(["a"], fc.array(charArb, { minLength: 1, maxLength: 6 }));

/** Printable ASCII (`[!-~]`) alphabets, for request ids and operation-like fields. */
export const printableAlphabetArb: fc.Arbitrary<string[]> = fc.array(
  fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
  { minLength: 1, maxLength: 6 },
);

/** `length` code points taken cyclically from the alphabet (never a split surrogate pair). */
export function cycle(alphabet: readonly string[], length: number): string {
  if (length <= 0 || alphabet.length === 0) return "";
  const whole = Math.floor(length / alphabet.length);
  return alphabet.join("").repeat(whole) + alphabet.slice(0, length - whole * alphabet.length).join("");
}

export function isAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * A string of min..max code points, boundaries included. The label names the length when
 * it is one of the specials and says when the content is not plain printable ASCII.
 */
export function boundedString(
  what: string,
  min: number,
  max: number,
  specials: readonly number[],
  alphabet: fc.Arbitrary<string[]> = alphabetArb,
): fc.Arbitrary<Labelled<string>> {
  return fc.record({ length: boundaryInteger(min, max, specials), alphabet }).map(({ length, alphabet: chars }) => {
    const value = cycle(chars, length);
    const notes: string[] = [];
    if (specials.includes(length)) notes.push(`${what} of ${length} char${length === 1 ? "" : "s"}`);
    if (!isAscii(value)) notes.push(`Unicode ${what}`);
    return labelled(value, notes.length > 0 ? notes.join(", ") : undefined);
  });
}

/** Unicode text of 0..64 code points for projections and string values. */
export const unicodeTextArb: fc.Arbitrary<string> = fc
  .record({ length: fc.integer({ min: 0, max: 64 }), alphabet: alphabetArb })
  .map(({ length, alphabet }) => cycle(alphabet, length));

/** Numbers at the limits of the upstream reader: i64/u64 ends, subnormal/normal/max doubles, exponent form. */
export const LIMIT_NUMBERS: readonly { value: JsonValue; name: string }[] = [
  { value: 18446744073709551615n, name: "u64 max" },
  { value: 9223372036854775807n, name: "i64 max" },
  { value: -9223372036854775808n, name: "i64 min" },
  { value: 0, name: "zero" },
  { value: -1, name: "-1" },
  { value: 5e-324, name: "5e-324 (smallest subnormal)" },
  { value: 2.2250738585072014e-308, name: "smallest normal double" },
  { value: 1.7976931348623157e308, name: "largest double" },
  { value: -1.7976931348623157e308, name: "most negative double" },
  { value: 0.1, name: "0.1" },
  { value: 1e21, name: "1e21" },
];

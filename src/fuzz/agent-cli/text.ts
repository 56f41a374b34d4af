/**
 * Texts of fuzzed user turns: a short prefix of characters and snippets that break naive
 * framing, escaping or text handling, and now and then a long tail of one character repeated
 * to an exact UTF-8 size, drawn bucket by bucket from 1 byte to 1 MiB with the sizes around
 * 64 KiB and the top of the range as boundaries. The tail's size is one integer, so a failure
 * on a long text shrinks by a binary search to the exact byte it starts at.
 */
import fc from "fast-check";
import { boundaryInteger } from "../provider/boundary.js";

/** Longest generated turn text, in UTF-8 bytes: well under the Desktop's 4 MiB line guard even escaped. */
export const MAX_TEXT_BYTES = 1024 * 1024;
const K64 = 64 * 1024;

/** Tail sizes in bytes: every order of magnitude, around 64 KiB, and the top of the range. */
export const TAIL_BUCKETS = [
  [1, 9], [10, 99], [100, 999], [1000, 9999], [10_000, 99_999], [100_000, MAX_TEXT_BYTES],
  [K64 - 64, K64 + 64], [MAX_TEXT_BYTES - 64, MAX_TEXT_BYTES],
] as const;

/** Characters and snippets that break naive line framing, JSON escaping or text handling. */
const TRICKY = [
  "\u2028", "\u2029", "\n", "\r\n", "\"", "\\", "'", "\t", "\u0000", "\u001b[31m",
  "😀", "𝄞", "\u202e", "e\u0301", "\u0301\u0302", "مرحبا", "日本語", "\ud83d", "{\"type\":\"result\"}", "</script>",
];
/** Characters a long tail repeats (the first one is where shrinking ends). */
export const REPEATED = ["a", "é", "😀", "\"", "\n"];

export const utf8 = (text: string): number => Buffer.byteLength(text, "utf8");

export function shortTextArb(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { arbitrary: fc.constantFrom(...TRICKY), weight: 3 },
    { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }), weight: 1 },
    { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 3 }), weight: 1 },
  );
  return fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(""));
}

/** `absent` most of the time; shrinking tries `absent` before anything else. */
export function rarely<T, A>(absent: A, arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | A> {
  return fc.oneof({ withCrossShrink: true }, { arbitrary: fc.constant(absent), weight: oneIn - 1 }, { arbitrary, weight: 1 });
}

/** Exactly `bytes` UTF-8 bytes: `char` repeated, the remainder filled with "a". */
export function tailOf(char: string, bytes: number): string {
  const size = utf8(char);
  return `${char.repeat(Math.floor(bytes / size))}${"a".repeat(bytes % size)}`;
}

/** A long tail (one time in three): shrinks first to none, then to "a"s, then to the fewest bytes that still fail. */
export function longTailArb(): fc.Arbitrary<string | null> {
  const tail = fc.record({ char: fc.constantFrom(...REPEATED), bytes: boundaryInteger(1, MAX_TEXT_BYTES, TAIL_BUCKETS, 100) });
  return rarely(null, tail.map(({ char, bytes }) => tailOf(char, bytes)), 3);
}

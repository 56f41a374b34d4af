import { serdeReadFloat } from "./serde-float.js";
import type { Parser } from "./state.js";

/** Largest u64 and the magnitude of the smallest i64, as decimal digits. */
const U64_MAX = "18446744073709551615";
const I64_MIN_MAGNITUDE = "9223372036854775808";
const EOF_IN_NUMBER = "unexpected end of input inside a number";

const I64_MIN_BIG = -(2n ** 63n);
const U64_MAX_BIG = 2n ** 64n - 1n;

/** Whether an integer token reads as an integer (within i64 when negative, u64 otherwise); past that serde_json reads a float. */
export function integerInRange(n: bigint): boolean {
  return n >= I64_MIN_BIG && n <= U64_MAX_BIG;
}

/** Checks that a digit is at `i` (fatal otherwise); returns `i`. */
function expectDigit(p: Parser, i: number, what: string): number {
  if (i >= p.len) p.fail(p.len, EOF_IN_NUMBER);
  if (!isDigit(p.bytes[i])) p.fail(i, `expected a digit ${what}`);
  return i;
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

function asciiText(bytes: Uint8Array, start: number, end: number): string {
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

/** Exact powers of ten representable as f64. */
const POW10: number[] = [];
for (let k = 0, v = 1; k <= 22; k++, v *= 10) POW10.push(v);

/** Small non-negative integers are common (counts, indexes, flags): share their bigint values. */
const SMALL_BIGINTS: bigint[] = [];
for (let k = 0; k < 1024; k++) SMALL_BIGINTS.push(BigInt(k));

/**
 * Reads the number token starting at `start` (a '-' or a digit); leaves p.pos after it.
 * Integer tokens (no '.', 'e', 'E') must fit i64 when negative and u64 otherwise.
 * Non-integer tokens must be finite as f64. Both checks are non-fatal.
 */
export function readNumber(p: Parser, start: number): number | bigint {
  const bytes = p.bytes;
  const len = p.len;
  let i = start;
  const neg = bytes[i] === 0x2d;
  if (neg) i++;
  if (i >= len) p.fail(len, EOF_IN_NUMBER);
  const intStart = i;
  // acc collects every digit of the integer and fraction parts; exact while nd <= 15.
  let acc = 0;
  const first = bytes[i]!;
  if (first === 0x30) {
    i++;
    if (isDigit(bytes[i])) p.fail(i, "leading zeros are not allowed");
  } else if (first >= 0x31 && first <= 0x39) {
    for (; i < len && isDigit(bytes[i]); i++) acc = acc * 10 + (bytes[i]! - 0x30);
  } else {
    p.fail(i, "expected a digit");
  }
  const intDigits = i - intStart;
  let fracDigits = 0;
  let isInteger = true;
  if (bytes[i] === 0x2e) {
    isInteger = false;
    i = expectDigit(p, i + 1, "after the decimal point");
    const fracStart = i;
    for (; i < len && isDigit(bytes[i]); i++) acc = acc * 10 + (bytes[i]! - 0x30);
    fracDigits = i - fracStart;
  }
  let exp = 0;
  if (i < len && (bytes[i]! | 0x20) === 0x65) {
    isInteger = false;
    i++;
    const expNeg = bytes[i] === 0x2d;
    if (expNeg || bytes[i] === 0x2b) i++;
    i = expectDigit(p, i, "in the exponent");
    for (; i < len && isDigit(bytes[i]); i++) if (exp < 100_000) exp = exp * 10 + (bytes[i]! - 0x30);
    if (expNeg) exp = -exp;
  }
  p.pos = i;

  const nd = intDigits + fracDigits;
  if (!isInteger) {
    if (p.serdeFloats) {
      const read = serdeReadFloat(asciiText(bytes, start, i));
      if (read === undefined) p.reportHere("non-finite-number", start, "number is out of range for a 64-bit float");
      return read ?? (neg ? -Infinity : Infinity);
    }
    const e10 = exp - fracDigits;
    if (nd <= 15 && e10 >= -22 && e10 <= 22) {
      // Both operands exact, so one correctly rounded operation gives the correctly rounded value.
      const magnitude = e10 >= 0 ? acc * POW10[e10]! : acc / POW10[-e10]!;
      return neg ? -magnitude : magnitude;
    }
    const value = Number(asciiText(bytes, start, i));
    if (!Number.isFinite(value)) p.reportHere("non-finite-number", start, "number is out of range for a 64-bit float");
    return value;
  }
  if (intDigits <= 15) {
    if (!p.lossless) return neg ? -acc : acc;
    if (neg) return acc === 0 ? -0 : BigInt(-acc);
    return acc < SMALL_BIGINTS.length ? SMALL_BIGINTS[acc]! : BigInt(acc);
  }
  const magnitude = asciiText(bytes, intStart, i);
  const limit = neg ? I64_MIN_MAGNITUDE : U64_MAX;
  if (intDigits > limit.length || (intDigits === limit.length && magnitude > limit)) {
    const range = neg ? "below the signed 64-bit minimum" : "above the unsigned 64-bit maximum";
    p.reportHere("integer-range", start, `integer is ${range}`);
    // serde_json reads an integer token past u64/i64 as a float (digits past the u64 as powers of ten).
    if (p.serdeFloats) {
      const read = serdeReadFloat(asciiText(bytes, start, i));
      if (read === undefined) p.reportHere("non-finite-number", start, "number is out of range for a 64-bit float");
      return read ?? (neg ? -Infinity : Infinity);
    }
  }
  const text = neg ? "-" + magnitude : magnitude;
  return p.lossless ? BigInt(text) : Number(text);
}

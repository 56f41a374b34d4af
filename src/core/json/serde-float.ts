/**
 * How serde_json (default features, no float_roundtrip) reads a non-integer number token.
 *
 * Its reader is "best effort", not correctly rounded: it collects the decimal digits into a
 * u64 (digits that no longer fit are dropped, integer-part ones counted as a power of ten),
 * converts that u64 to f64, then multiplies or divides once by a power of ten from a table
 * of 1e0..1e308 (dividing by 1e308 first for exponents past -308). This module replays
 * exactly those steps, so the kit knows what a Provider built on the upstream library sees.
 * Checked against serde_json 1.0.87 and 1.0.154, which read every literal of the oracle
 * corpus identically (see test/fixtures/provider/serde-float-vectors.json).
 */

const U64_MAX = 18446744073709551615n;
const POW10: number[] = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

/** serde_json's f64_from_parts: one rounding to f64, one multiplication or division. */
function fromParts(significand: bigint, exponent: number): number | undefined {
  let f = Number(significand);
  for (;;) {
    const pow = POW10[Math.abs(exponent)];
    if (pow !== undefined) {
      if (exponent >= 0) {
        f *= pow;
        if (!Number.isFinite(f)) return undefined;
      } else {
        f /= pow;
      }
      return f;
    }
    if (f === 0) return f;
    if (exponent >= 0) return undefined;
    f /= 1e308;
    exponent += 308;
  }
}

const NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/;

/**
 * The f64 serde_json reads for a JSON number token that has a fraction or an exponent,
 * or undefined when serde_json refuses it as out of range. Throws on a malformed token.
 */
export function serdeReadFloat(token: string): number | undefined {
  const m = NUMBER.exec(token);
  if (m === null) throw new RangeError(`not a JSON number: ${token}`);
  const [, sign, int = "", frac = "", expSign, expDigits] = m;
  let significand = 0n;
  let exponent = 0;
  let full = false;
  // Integer digits that no longer fit the u64 are dropped and counted as powers of ten.
  for (const ch of int) {
    const next = significand * 10n + BigInt(ch.charCodeAt(0) - 48);
    if (full || next > U64_MAX) {
      full = true;
      exponent++;
    } else {
      significand = next;
    }
  }
  // Fraction digits are appended while they fit (even after integer digits were dropped);
  // the first that does not fit ends the digits, the rest are ignored.
  for (const ch of frac) {
    const next = significand * 10n + BigInt(ch.charCodeAt(0) - 48);
    if (next > U64_MAX) break;
    significand = next;
    exponent--;
  }
  if (expDigits !== undefined) {
    // An exponent past i32 is an error for a nonzero significand going up, zero otherwise.
    const magnitude = BigInt(expDigits);
    if (magnitude > 2147483647n) {
      if (significand !== 0n && expSign !== "-") return undefined;
      return sign === "-" ? -0 : 0;
    }
    const e = Number(magnitude);
    exponent = Math.max(-2147483648, Math.min(2147483647, expSign === "-" ? exponent - e : exponent + e));
  }
  const f = fromParts(significand, exponent);
  if (f === undefined) return undefined;
  return sign === "-" ? -f : f;
}

/** The shortest literal JavaScript writes for a finite double (integers below 1e21 as digits). */
function literal(x: number): string {
  return JSON.stringify(x);
}

/**
 * Whether serde_json reads the literal the kit writes for `x` back as exactly `x`. Integral
 * doubles below 1e21 are written as integer tokens (exact), others go through the float reader.
 */
export function serdeReadsExactly(x: number): boolean {
  if (!Number.isFinite(x)) return false;
  const text = literal(x);
  if (!/[.eE]/.test(text)) return true;
  return Object.is(serdeReadFloat(text), x);
}

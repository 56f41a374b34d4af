// digest.mjs: the invoke request's input_digest, recomputed from what the bytes mean.
//
// The host computes  input_digest = "sha256:" + hex(sha256(C))  where C is the
// request WITHOUT its input_digest field, serialized compactly the way Rust's
// serde_json writes a serde_json::Value. The wire bytes themselves are not
// hashed, so "0.5e1", "5.0" and "5e0" give the same digest, as do "\u00e9" and "é".
// The rules, all implemented below:
//
//   * objects: keys sorted by Unicode code point (the same as sorting their
//     UTF-8 bytes; NOT JavaScript's default UTF-16 sort, which puts U+1F600
//     before U+FF5A), written {"k":v,...} with no whitespace at all;
//   * strings: only '"', '\' and control characters below U+0020 are escaped
//     (\b \f \n \r \t, the rest as \u00xx in lowercase hex); everything else,
//     "/" and non-ASCII included, is written raw and hashed as UTF-8;
//   * integer tokens (no ".", "e", "E") are written as sent, except "-0",
//     which serde_json reads as the float -0.0;
//   * every other number is an f64 printed the way serde_json prints it (see
//     formatF64). That way changed once: serde_json up to 1.0.146 used the `ryu`
//     crate (1e21), 1.0.147 and later use `zmij` (1e+21). Hosts of both kinds
//     exist, so a request can carry either digest: DIALECTS lists both, and
//     decode.mjs accepts a digest that matches any of them.
//
// Caveat: we read decimals as the correctly rounded f64 (JavaScript's Number).
// serde_json's default float parser is only "best effort" and can land one
// f64 away for literals with about 16+ significant digits or an exponent past
// ±22 (e.g. "78.613e-20"), giving a different digest for those requests.
// Everyday literals such as 1.25, 0.5e1, 1e16 or 0.0001 agree exactly.
//
// The host's parser guarantees no value nests deeper than 32, so plain
// recursion is safe here.

import { createHash } from "node:crypto";
import { JsonNumber } from "./strict-json.mjs";

const SHORT_ESCAPES = {
  __proto__: null,
  '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
};

/** The serde_json float formats ("dialects") a host may have hashed with. */
export const DIALECTS = ["ryu", "zmij"];

/** Compact serde_json-style serialization of a tree from parseStrictJson. */
export function canonicalJson(value, dialect = "ryu") {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return quote(value);
  if (value instanceof JsonNumber) return numberText(value, dialect);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, dialect)).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((key) => `${quote(key)}:${canonicalJson(value[key], dialect)}`).join(",")}}`;
  }
  throw new TypeError(`not a parsed JSON value: ${typeof value}`);
}

/** "sha256:<hex>" over the canonical form of `request` minus its input_digest. */
export function requestDigest(request, dialect = "ryu") {
  const unsigned = Object.create(null);
  for (const key of Object.keys(request)) {
    if (key !== "input_digest") unsigned[key] = request[key];
  }
  const hex = createHash("sha256").update(canonicalJson(unsigned, dialect), "utf8").digest("hex");
  return `sha256:${hex}`;
}

/** Whether `request.input_digest` is the digest of the request in one of the DIALECTS. */
export function digestMatches(request) {
  return DIALECTS.some((dialect) => requestDigest(request, dialect) === request.input_digest);
}

// Code point order (the same as UTF-8 byte order, which Rust's String uses).
// Comparing UTF-16 code units agrees except when a surrogate (U+D800..U+DFFF,
// half of a code point above U+FFFF) meets a unit in U+E000..U+FFFF: the
// surrogate must sort last, so `rank` moves surrogates above that range.
function compareCodePoints(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

function rank(unit) {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

function quote(text) {
  const escaped = text.replace(/["\\\u0000-\u001f]/g, (char) =>
    SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `"${escaped}"`;
}

function numberText(number, dialect) {
  if (number.isInteger && number.text !== "-0") return number.text;
  return formatF64(number.value, dialect);
}

/**
 * Formats a finite f64 like serde_json: `ryu` up to 1.0.146, `zmij` after.
 * Start from the shortest digits that round-trip, d1d2...dn, and the decimal
 * exponent X of d1 (JavaScript's toExponential() gives "d1.d2...dne±X").
 * With kk = X + 1 (the position of the decimal point after d1):
 *   n <= kk <= 16   digits, (kk - n) zeros, ".0"        1.0, 1000000000000000.0
 *   0 < kk <= 16    digits with "." after kk of them     12.5
 *   -5 < kk <= 0    "0.", -kk zeros, digits              0.0001
 *   n == 1          digit "e" (kk - 1)                   1e16, 1e-7
 *   otherwise       d1 "." rest "e" (kk - 1)             1.5e-7
 * The zmij dialect writes a "+" before a positive exponent: 1e+16, 1.5e+300.
 * Zero prints as "0.0" or "-0.0"; negative numbers get a leading "-".
 */
export function formatF64(x, dialect = "ryu") {
  if (!Number.isFinite(x)) throw new RangeError("JSON numbers are finite");
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exponent] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const n = digits.length;
  const kk = Number(exponent) + 1;
  if (n <= kk && kk <= 16) return `${sign}${digits}${"0".repeat(kk - n)}.0`;
  if (0 < kk && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`;
  if (-5 < kk && kk <= 0) return `${sign}0.${"0".repeat(-kk)}${digits}`;
  const power = `e${kk > 0 && dialect === "zmij" ? "+" : ""}${kk - 1}`;
  if (n === 1) return `${sign}${digits}${power}`;
  return `${sign}${digits[0]}.${digits.slice(1)}${power}`;
}

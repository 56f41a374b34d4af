import { DEFAULT_DIGEST_DIALECT, type DigestDialectId } from "./dialects.js";
import { integerInRange } from "./numbers.js";
import { serdeReadFloat } from "./serde-float.js";
import { serialize, serializeParts, writtenAsIs, type SerializeStyle } from "./serialize.js";
import type { JsonObject, JsonValue } from "./types.js";

/** Maps a UTF-16 code unit so that code unit order becomes code point order. */
function rank(u: number): number {
  if (u < 0xd800) return u;
  return u >= 0xe000 ? u - 0x800 : u + 0x2000;
}

/** Orders strings by Unicode code point (= UTF-8 byte order), as Rust's BTreeMap<String, _> does. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ESCAPE = /["\\\u0000-\u001f]/g;
const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(ch: string): string {
  return SHORT[ch] ?? "\\u00" + ch.charCodeAt(0).toString(16).padStart(2, "0");
}

/** serde_json string formatting: minimal escapes, lowercase \u00xx, everything else raw. */
function canonicalString(s: string): string {
  if (writtenAsIs(s)) return '"' + s + '"';
  if (LONE_SURROGATE.test(s)) throw new Error(`canonicalJson: string contains a lone surrogate: ${JSON.stringify(s)}`);
  return '"' + s.replace(ESCAPE, escapeChar) + '"';
}

/**
 * Formats a finite number as serde_json writes an f64: shortest round-trip digits, fixed
 * notation for decimal exponents -5..=15, else d.ddde<exp>; the zmij dialect writes a plus
 * sign before a positive exponent (see dialects.ts).
 */
export function formatF64(x: number, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string {
  if (!Number.isFinite(x)) throw new Error(`canonicalJson: non-finite number ${x}`);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const neg = x < 0;
  const exp = (neg ? -x : x).toExponential();
  const e = exp.indexOf("e");
  const digits = e > 1 ? exp[0]! + exp.slice(2, e) : exp.slice(0, e);
  const n = digits.length;
  const kk = Number(exp.slice(e + 1)) + 1;
  let s: string;
  if (n <= kk && kk <= 16) s = digits + "0".repeat(kk - n) + ".0";
  else if (0 < kk && kk <= 16) s = digits.slice(0, kk) + "." + digits.slice(kk);
  else if (-5 < kk && kk <= 0) s = "0." + "0".repeat(-kk) + digits;
  else {
    const exponent = (kk > 0 && dialect === "zmij" ? "e+" : "e") + String(kk - 1);
    s = (n === 1 ? digits : digits[0]! + "." + digits.slice(1)) + exponent;
  }
  return neg ? "-" + s : s;
}

const sortedKeys = (obj: JsonObject): string[] => Object.keys(obj).sort(compareCodePoints);

const canonicalStyles: Record<DigestDialectId, SerializeStyle> = {
  ryu: { keys: sortedKeys, string: canonicalString, number: (x) => formatF64(x, "ryu"), plain: writtenAsIs },
  zmij: { keys: sortedKeys, string: canonicalString, number: (x) => formatF64(x, "zmij"), plain: writtenAsIs },
};

/**
 * Exactly what Rust serde_json::to_vec writes for a serde_json::Value with BTreeMap objects:
 * compact, keys sorted by code point, numbers as f64 (bigint as integers), floats in the
 * given dialect. Throws on lone surrogates, non-finite numbers and cycles (kit bugs).
 */
export function canonicalJson(value: JsonValue, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string {
  return serialize(value, canonicalStyles[dialect]);
}

const INTEGER_TOKEN = /^-?[0-9]+$/;

/** A number token as the kit's reader reads it (lossless integers, serde_json floats), written canonically. */
function tokenRead(token: string, dialect: DigestDialectId): string {
  if (INTEGER_TOKEN.test(token)) {
    const n = BigInt(token);
    if (integerInRange(n)) return n.toString();
  }
  // A float token, or an integer token past i64/u64 (serde_json reads it as a float).
  const read = serdeReadFloat(token);
  if (read === undefined) throw new RangeError(`canonicalReadBack: ${token} is out of range for a 64-bit float`);
  return formatF64(read, dialect);
}

const readBackStyle = (dialect: DigestDialectId): SerializeStyle => ({
  keys: sortedKeys,
  string: canonicalString,
  number: (x) => {
    // A safe integer's token is its digits, and it reads back as itself (the common case, without the token's round trip).
    if (Number.isSafeInteger(x)) return String(x);
    if (!Number.isFinite(x)) throw new RangeError(`canonicalReadBack: non-finite number ${x}`);
    return tokenRead(JSON.stringify(x), dialect);
  },
  bigint: (n) => tokenRead(n.toString(), dialect),
  plain: writtenAsIs,
});

const readBackStyles: Record<DigestDialectId, SerializeStyle> = { ryu: readBackStyle("ryu"), zmij: readBackStyle("zmij") };

/**
 * canonicalJson of what the kit's reader (lossless integers, serde_json floats) reads back from
 * the value's wire text, written straight from the value: a string reads back as itself, a
 * number as its JavaScript literal reads (an integer token within i64/u64 exactly, any other
 * token as serde_json reads a float). Throws where reading the wire text back would not give one
 * plain value (a lone surrogate, a number out of range): the caller then reads it back.
 */
export function canonicalReadBack(value: JsonValue, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string {
  return serialize(value, readBackStyles[dialect]);
}

/** canonicalReadBack's text in parts (serializeParts: a long string value is a part of its own). */
export function canonicalReadBackParts(value: JsonValue, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string[] {
  return serializeParts(value, readBackStyles[dialect]);
}

/** canonicalJson's text in parts (serializeParts). */
export function canonicalJsonParts(value: JsonValue, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string[] {
  return serializeParts(value, canonicalStyles[dialect]);
}

import { serialize, type SerializeStyle } from "./serialize.js";
import type { JsonValue } from "./types.js";

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

const NEEDS_WORK = /["\\\u0000-\u001f\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ESCAPE = /["\\\u0000-\u001f]/g;
const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeChar(ch: string): string {
  return SHORT[ch] ?? "\\u00" + ch.charCodeAt(0).toString(16).padStart(2, "0");
}

/** serde_json string formatting: minimal escapes, lowercase \u00xx, everything else raw. */
function canonicalString(s: string): string {
  if (!NEEDS_WORK.test(s)) return '"' + s + '"';
  if (LONE_SURROGATE.test(s)) throw new Error(`canonicalJson: string contains a lone surrogate: ${JSON.stringify(s)}`);
  return '"' + s.replace(ESCAPE, escapeChar) + '"';
}

/** Formats a finite number as serde_json (ryu) writes an f64. */
export function formatF64(x: number): string {
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
  else if (n === 1) s = digits + "e" + String(kk - 1);
  else s = digits[0]! + "." + digits.slice(1) + "e" + String(kk - 1);
  return neg ? "-" + s : s;
}

const canonicalStyle: SerializeStyle = {
  keys: (obj) => Object.keys(obj).sort(compareCodePoints),
  string: canonicalString,
  number: formatF64,
};

/**
 * Exactly what Rust serde_json::to_vec writes for a serde_json::Value with BTreeMap objects:
 * compact, keys sorted by code point, numbers as f64 (bigint as integers).
 * Throws on lone surrogates, non-finite numbers and cycles (kit bugs).
 */
export function canonicalJson(value: JsonValue): string {
  return serialize(value, canonicalStyle);
}

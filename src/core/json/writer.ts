import { serialize, serializeParts, writtenAsIs, type SerializeStyle } from "./serialize.js";
import type { JsonValue } from "./types.js";

const wireStyle: SerializeStyle = {
  keys: (obj) => Object.keys(obj),
  string: (s) => JSON.stringify(s),
  number: (n) => {
    if (!Number.isFinite(n)) throw new RangeError(`cannot write non-finite number ${n} as JSON`);
    return JSON.stringify(n);
  },
  plain: writtenAsIs,
};

/**
 * Compact JSON as JavaScript writes it (own enumerable keys in property order, JSON.stringify
 * string and number formatting, lone surrogates as \udXXX), plus bigint as decimal digits.
 * Iterative, so deeply nested values do not overflow. Throws on non-finite numbers and cycles.
 */
export function wireJson(value: JsonValue): string {
  return serialize(value, wireStyle);
}

const encoder = new TextEncoder();

/**
 * wireJson's UTF-8 bytes. A request with a megabyte string (the kit's oversized probes) is
 * written part by part into one buffer, without the megabyte text wireJson would first make.
 */
export function wireBytes(value: JsonValue): Uint8Array {
  const parts = serializeParts(value, wireStyle);
  if (parts.length === 1) return encoder.encode(parts[0]);
  return utf8Join(parts);
}

/** The UTF-8 bytes of the parts, one after another, in one new array. */
export function utf8Join(parts: readonly string[]): Uint8Array {
  const out = Buffer.allocUnsafeSlow(parts.reduce((sum, part) => sum + Buffer.byteLength(part, "utf8"), 0));
  let at = 0;
  for (const part of parts) at += out.write(part, at, "utf8");
  // byteLength and write agree on every string; were they not to, bytes would be left unset.
  if (at !== out.byteLength) throw new Error("utf8Join: a part was not written whole");
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

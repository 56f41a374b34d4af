import { serialize, type SerializeStyle } from "./serialize.js";
import type { JsonValue } from "./types.js";

const wireStyle: SerializeStyle = {
  keys: (obj) => Object.keys(obj),
  string: (s) => JSON.stringify(s),
  number: (n) => {
    if (!Number.isFinite(n)) throw new RangeError(`cannot write non-finite number ${n} as JSON`);
    return JSON.stringify(n);
  },
};

/**
 * Compact JSON as JavaScript writes it (own enumerable keys in property order, JSON.stringify
 * string and number formatting, lone surrogates as \udXXX), plus bigint as decimal digits.
 * Iterative, so deeply nested values do not overflow. Throws on non-finite numbers and cycles.
 */
export function wireJson(value: JsonValue): string {
  return serialize(value, wireStyle);
}

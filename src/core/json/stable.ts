import type { JsonValue } from "./index.js";

/** JSON text with sorted keys (bigints as digits) and without `drop` at the top level: equal values, however their keys were ordered, give equal text. */
export function stableJson(value: JsonValue, drop: readonly string[] = []): string {
  const walk = (v: JsonValue): string => {
    if (typeof v === "bigint") return v.toString();
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(walk).join(",")}]`;
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${walk(v[k] as JsonValue)}`).join(",")}}`;
  };
  if (value === null || typeof value !== "object" || Array.isArray(value)) return walk(value);
  return walk(Object.fromEntries(Object.entries(value).filter(([k]) => !drop.includes(k))));
}

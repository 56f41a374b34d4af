import type { JsonValue } from "../json/index.js";
import type { JsonObject } from "./types.js";

const SECRET_KEY = /(secret|token|passw(or)?d|api[_-]?key|credential|auth|private[_-]?key)/i;

/** String values under secret-looking keys: redacted from every report. */
export function secretsOf(config: JsonValue, underSecretKey = false, into: string[] = []): string[] {
  if (typeof config === "string") {
    if (underSecretKey && config.length >= 4 && !into.includes(config)) into.push(config);
  } else if (Array.isArray(config)) {
    for (const item of config) secretsOf(item, underSecretKey, into);
  } else if (config !== null && typeof config === "object") {
    for (const [key, value] of Object.entries(config)) secretsOf(value, underSecretKey || SECRET_KEY.test(key), into);
  }
  return into;
}

export interface WrongTypedVariant {
  key: string;
  type: string;
  config: JsonObject;
}

function wrongValue(value: JsonValue): { value: JsonValue; type: string } {
  if (typeof value === "string") return { value: 12345, type: "a number" };
  if (typeof value === "number" || typeof value === "bigint") return { value: "12345", type: "a string" };
  if (typeof value === "boolean") return { value: "true", type: "a string" };
  if (value === null) return { value: { unexpected: true }, type: "an object" };
  if (Array.isArray(value)) return { value: "not-an-array", type: "a string" };
  return { value: ["not-an-object"], type: "an array" };
}

/** One variant per top-level setting (at most 8), with that setting's value of another JSON type. */
export function wrongTypedVariants(config: JsonObject): WrongTypedVariant[] {
  return Object.keys(config)
    .slice(0, 8)
    .map((key) => {
      const wrong = wrongValue(config[key] as JsonValue);
      const variant: JsonObject = {};
      for (const [k, v] of Object.entries(config)) {
        Object.defineProperty(variant, k, { value: k === key ? wrong.value : v, enumerable: true, writable: true, configurable: true });
      }
      return { key, type: wrong.type, config: variant };
    });
}

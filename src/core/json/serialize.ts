import type { JsonObject, JsonValue } from "./types.js";

/** How a serializer orders keys and writes leaves. */
export interface SerializeStyle {
  keys(obj: JsonObject): string[];
  string(s: string): string;
  number(n: number): string;
  /** Writes a bigint (default: its decimal digits). */
  bigint?(n: bigint): string;
}

interface Frame {
  container: JsonValue[] | JsonObject;
  /** Keys to visit for objects, null for arrays. */
  keys: string[] | null;
  index: number;
  size: number;
}

function leaf(v: JsonValue, style: SerializeStyle): string {
  switch (typeof v) {
    case "string":
      return style.string(v);
    case "number":
      return style.number(v);
    case "bigint":
      return style.bigint === undefined ? v.toString() : style.bigint(v);
    case "boolean":
      return v ? "true" : "false";
    default:
      if (v === null) return "null";
      throw new TypeError(`not a JSON value: ${typeof v}`);
  }
}

/**
 * Compact, iterative (no recursion, so any nesting depth is fine) JSON serialization.
 * Throws on cycles and on values that are not JsonValue.
 */
export function serialize(root: JsonValue, style: SerializeStyle): string {
  let out = "";
  const stack: Frame[] = [];
  const open = new Set<object>();
  let v: JsonValue = root;
  for (;;) {
    if (typeof v === "object" && v !== null) {
      if (open.has(v)) throw new TypeError("cannot serialize a cyclic structure");
      const isArr = Array.isArray(v);
      const keys = isArr ? null : style.keys(v as JsonObject);
      const size = keys === null ? (v as JsonValue[]).length : keys.length;
      if (size === 0) {
        out += isArr ? "[]" : "{}";
      } else {
        open.add(v);
        stack.push({ container: v, keys, index: 0, size });
        if (keys === null) {
          out += "[";
          v = (v as JsonValue[])[0]!;
        } else {
          out += "{" + style.string(keys[0]!) + ":";
          v = (v as JsonObject)[keys[0]!]!;
        }
        continue;
      }
    } else {
      out += leaf(v, style);
    }
    // Move to the next sibling, closing finished containers.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out;
      top.index++;
      if (top.index < top.size) {
        if (top.keys === null) {
          out += ",";
          v = (top.container as JsonValue[])[top.index]!;
        } else {
          const key = top.keys[top.index]!;
          out += "," + style.string(key) + ":";
          v = (top.container as JsonObject)[key]!;
        }
        break;
      }
      out += top.keys === null ? "]" : "}";
      open.delete(top.container);
      stack.pop();
    }
  }
}

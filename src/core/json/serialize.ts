import type { JsonObject, JsonValue } from "./types.js";

/** How a serializer orders keys and writes leaves. */
export interface SerializeStyle {
  keys(obj: JsonObject): string[];
  string(s: string): string;
  number(n: number): string;
  /** Writes a bigint (default: its decimal digits). */
  bigint?(n: bigint): string;
  /** Whether `string` writes s as itself between quotes (serializeParts then hands a long s on unwritten). */
  plain?(s: string): boolean;
}

/** From this length, serializeParts hands a string value on as its own part when the style writes it plainly. */
export const LONG_STRING = 64 * 1024;

/** What JSON.stringify and serde_json both write other than as itself: quote, backslash, control characters and (escaped when lone) surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;
/** The last long string looked at: one megabyte request is written and hashed several times (bound, written, its shape taken). */
let lastLong: { s: string; plain: boolean } | undefined;

/** Whether JSON.stringify and serde_json both write s as itself between quotes. */
export function writtenAsIs(s: string): boolean {
  if (s.length < LONG_STRING) return !ESCAPED.test(s);
  // The same string (as it mostly is) compares at once; another as long, by its contents.
  if (lastLong?.s !== s) lastLong = { s, plain: !ESCAPED.test(s) };
  return lastLong.plain;
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
  return write(root, style, undefined);
}

/**
 * serialize's text as parts whose concatenation it is: a string value of LONG_STRING code units
 * or more that the style writes plainly is a part of its own, the text around it the parts
 * before and after. A megabyte string is then hashed or copied into bytes as it is, not first
 * copied into one long text (which costs a fresh megabyte of heap each time).
 */
export function serializeParts(root: JsonValue, style: SerializeStyle): string[] {
  const parts: string[] = [];
  parts.push(write(root, style, parts));
  return parts;
}

/** serialize; with `parts`, long plain strings go there (serializeParts) and what is returned is the text after the last. */
function write(root: JsonValue, style: SerializeStyle, parts: string[] | undefined): string {
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
    } else if (parts !== undefined && typeof v === "string" && v.length >= LONG_STRING && style.plain?.(v) === true) {
      parts.push(out + '"', v);
      out = '"';
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

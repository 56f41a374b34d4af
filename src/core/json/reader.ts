import { readNumber } from "./numbers.js";
import { Parser, SyntaxStop } from "./state.js";
import { readString } from "./strings.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_ISSUES,
  type JsonIssue,
  type JsonObject,
  type JsonValue,
  type ParseOptions,
  type ParseResult,
} from "./types.js";
import { positionsAt, scanInvalidUtf8, toBytes } from "./utf8.js";

export { positionAt } from "./utf8.js";

function skipWs(bytes: Uint8Array, i: number, len: number): number {
  while (i < len) {
    const c = bytes[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Stores a member without ever touching the prototype (`__proto__` becomes an own property). */
function setMember(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

function describe(bytes: Uint8Array, i: number): string {
  const b = bytes[i]!;
  return b >= 0x21 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, "0")}`;
}

function expected(p: Parser, i: number, what: string): never {
  if (i >= p.len) p.fail(p.len, `unexpected end of input, expected ${what}`);
  p.fail(i, `expected ${what}, found ${describe(p.bytes, i)}`);
}

/** Reads `"key" :` at `i` (after whitespace) for the object on top of the stack; returns the index after ':'. */
function readKey(p: Parser, i: number): number {
  const bytes = p.bytes;
  if (i >= p.len || bytes[i] !== 0x22) expected(p, i, "a string key");
  const before = p.issues.length;
  const key = readString(p, i);
  const d = p.frames.length - 1;
  p.keys[d] = key;
  if (p.issues.length !== before) p.patchPaths(before, p.valuePath());
  if (Object.hasOwn(p.frames[d]!, key)) {
    if (p.collecting()) p.report("duplicate-key", i, `duplicate key ${JSON.stringify(key)}`, p.valuePath(), key);
  }
  const j = skipWs(bytes, p.pos, p.len);
  if (j >= p.len || bytes[j] !== 0x3a) expected(p, j, "':'");
  return j + 1;
}

function literal(p: Parser, i: number, word: string): void {
  for (let k = 1; k < word.length; k++) {
    if (i + k >= p.len) p.fail(p.len, `unexpected end of input inside '${word}'`);
    if (p.bytes[i + k] !== word.charCodeAt(k)) p.fail(i + k, `invalid literal, expected '${word}'`);
  }
}

/** The iterative document parser. Returns the first document; p.pos is left just after it. */
function parseDocument(p: Parser, start: number): JsonValue {
  const bytes = p.bytes;
  const len = p.len;
  const frames = p.frames;
  const isArray = p.isArray;
  let i = start;
  let value: JsonValue;
  for (;;) {
    i = skipWs(bytes, i, len);
    if (frames.length > p.maxDepth && !p.depthReported) {
      p.depthReported = true;
      p.reportHere("depth", i, `value nested deeper than the maximum depth of ${p.maxDepth}`);
    }
    if (i >= len) expected(p, i, "a value");
    const c = bytes[i]!;
    if (c === 0x7b || c === 0x5b) {
      const isArr = c === 0x5b;
      const container: JsonValue[] | JsonObject = isArr ? [] : {};
      p.pushFrame(container, isArr);
      i = skipWs(bytes, i + 1, len);
      if (i < len && bytes[i] === (isArr ? 0x5d : 0x7d)) {
        p.popFrame();
        value = container;
        i++;
      } else {
        if (!isArr) i = readKey(p, i);
        continue;
      }
    } else if (c === 0x22) {
      const before = p.issues.length;
      value = readString(p, i);
      if (p.issues.length !== before) p.patchPaths(before, p.valuePath());
      i = p.pos;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      value = readNumber(p, i);
      i = p.pos;
    } else if (c === 0x74) {
      literal(p, i, "true");
      value = true;
      i += 4;
    } else if (c === 0x66) {
      literal(p, i, "false");
      value = false;
      i += 5;
    } else if (c === 0x6e) {
      literal(p, i, "null");
      value = null;
      i += 4;
    } else {
      expected(p, i, "a value");
    }
    // The value is complete: attach it, then close as many containers as the input closes.
    for (;;) {
      const d = frames.length - 1;
      if (d < 0) {
        p.pos = i;
        return value;
      }
      const top = frames[d]!;
      i = skipWs(bytes, i, len);
      const c2 = i < len ? bytes[i]! : -1;
      if (isArray[d]) {
        (top as JsonValue[]).push(value);
        if (c2 === 0x2c) {
          i++;
          break;
        }
        if (c2 !== 0x5d) expected(p, i, "',' or ']'");
      } else {
        setMember(top as JsonObject, p.keys[d]!, value);
        if (c2 === 0x2c) {
          i = readKey(p, skipWs(bytes, i + 1, len));
          break;
        }
        if (c2 !== 0x7d) expected(p, i, "',' or '}'");
      }
      p.popFrame();
      value = top;
      i++;
    }
  }
}

/** Strict JSON reader for untrusted input. See ParseOptions/ParseResult; never throws on bad input. */
export function parseJson(input: Uint8Array | string, options: ParseOptions = {}): ParseResult {
  const bytes = toBytes(input);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const p = new Parser(bytes, {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxIssues: Math.max(1, options.maxIssues ?? DEFAULT_MAX_ISSUES),
    lossless: options.numbers === "lossless",
    serdeFloats: options.floats === "serde_json",
  });
  const len = bytes.length;
  const reportInvalid = (offset: number): void => p.report("invalid-utf8", offset, "invalid UTF-8 byte sequence");
  if (len > maxBytes) p.report("size", maxBytes, `input is ${len} bytes, larger than the limit of ${maxBytes}`);
  let start = 0;
  if (len >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    p.report("bom", 0, "input starts with a UTF-8 byte order mark");
    start = 3;
  }
  let value: JsonValue | undefined;
  let end: number;
  const first = skipWs(bytes, start, len);
  if (first >= len) {
    p.issues.push({ kind: "empty", message: "input is empty or only whitespace", offset: first });
    end = first;
  } else {
    try {
      value = parseDocument(p, first);
      end = p.pos;
      const rest = skipWs(bytes, end, len);
      if (rest < len) {
        p.report("trailing-data", rest, `unexpected data after the JSON document: ${describe(bytes, rest)}`);
        scanInvalidUtf8(bytes, rest, len, reportInvalid);
      }
    } catch (error) {
      if (!(error instanceof SyntaxStop)) throw error;
      value = undefined;
      end = error.offset;
      // Fatal: always recorded, even past maxIssues, so the caller learns why there is no value.
      p.issues.push({ kind: "syntax", message: error.message, offset: error.offset });
      scanInvalidUtf8(bytes, error.offset, len, reportInvalid);
    }
  }
  const drafts = p.issues.slice().sort((a, b) => a.offset - b.offset);
  const positions = positionsAt(
    bytes,
    drafts.map((d) => d.offset),
  );
  const issues: JsonIssue[] = drafts.map((d, k) => {
    const issue: JsonIssue = { kind: d.kind, message: d.message, ...positions[k]! };
    if (d.key !== undefined) issue.key = d.key;
    if (d.path !== undefined) issue.path = d.path;
    return issue;
  });
  const result: ParseResult = { ok: issues.length === 0, end, issues };
  if (value !== undefined) result.value = value;
  return result;
}

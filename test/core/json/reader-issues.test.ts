import { describe, expect, it } from "vitest";
import { parseJson, type JsonObject } from "../../../src/core/json/index.js";
import { bytesOf, single, where } from "./helpers.js";

describe("parseJson: invalid UTF-8 (non-fatal, decoded as U+FFFD)", () => {
  it.each([
    ["a bad lead byte", [0xff], "\ufffd"],
    ["a lone continuation byte", [0x80], "\ufffd"],
    ["an overlong '/'", [0xc0, 0xaf], "\ufffd\ufffd"],
    ["an overlong 3-byte NUL", [0xe0, 0x80, 0x80], "\ufffd\ufffd\ufffd"],
    ["a UTF-8-encoded surrogate", [0xed, 0xa0, 0x80], "\ufffd\ufffd\ufffd"],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], "\ufffd\ufffd\ufffd\ufffd"],
    ["a truncated 3-byte sequence", [0xe2, 0x82], "\ufffd"],
    ["a truncated 4-byte sequence", [0xf0, 0x9f, 0x98], "\ufffd"],
    ["mixed bad bytes in one run", [0xe2, 0x82, 0xff, 0xc3], "\ufffd\ufffd\ufffd"],
  ])("%s → one issue at its first byte", (_name, bad, decoded) => {
    const result = parseJson(bytesOf('["ok","a', bad, 'b"]'));
    expect(result.ok).toBe(false);
    expect(result.value).toEqual(["ok", `a${decoded}b`]);
    expect(result.issues).toEqual([
      { kind: "invalid-utf8", message: expect.any(String), offset: 8, line: 1, column: 9, path: "/1" },
    ]);
  });

  it("accepts well-formed multi-byte text", () => {
    const text = '{"é":"東京 😀 \u{10ffff} \ud7ff \ue000"}';
    expect(parseJson(text)).toEqual({ ok: true, value: JSON.parse(text), end: new TextEncoder().encode(text).length, issues: [] });
  });

  it("reports each separate run, including in keys and next to escapes", () => {
    const result = parseJson(bytesOf('{"k', [0xff], '":"', [0xfe], "x", [0xfd], "\\n", [0xfc], '"}'));
    expect(where(result)).toEqual(["invalid-utf8@3:1:4", "invalid-utf8@7:1:8", "invalid-utf8@9:1:10", "invalid-utf8@12:1:13"]);
    expect(result.issues.map((i) => i.path)).toEqual(["/k\ufffd", "/k\ufffd", "/k\ufffd", "/k\ufffd"]);
    expect(result.value).toEqual({ "k\ufffd": "\ufffdx\ufffd\n\ufffd" });
  });

  it("reports bad bytes outside strings together with the syntax error", () => {
    expect(where(parseJson(bytesOf("[1,", [0xff], "]")))).toEqual(["syntax@3:1:4", "invalid-utf8@3:1:4"]);
    // Everything after the stop is still checked for encoding.
    expect(where(parseJson(bytesOf("[x ", [0xff], "]")))).toEqual(["syntax@1:1:2", "invalid-utf8@3:1:4"]);
    expect(where(parseJson(bytesOf("1 ", [0xc0, 0x80]))).sort()).toEqual(["invalid-utf8@2:1:3", "trailing-data@2:1:3"]);
  });

  it("does not report strings given as JS strings (already Unicode)", () => {
    expect(parseJson('"\u00e9"').ok).toBe(true);
  });
});

describe("parseJson: duplicate keys", () => {
  it("compares keys after decoding escapes; later value wins", () => {
    const result = parseJson('{"a":1,"\\u0061":2}');
    expect(result.value).toEqual({ a: 2 });
    expect(result.issues).toEqual([
      { kind: "duplicate-key", message: expect.any(String), offset: 7, line: 1, column: 8, key: "a", path: "/a" },
    ]);
  });

  it("reports every repetition, nested paths, and escaped pointer tokens", () => {
    const result = parseJson('{"a":1,"a":2,"a":3,\n"x":{"k/~":1,"k\\/~":[]}}');
    expect(where(result)).toEqual(["duplicate-key@7:1:8", "duplicate-key@13:1:14", "duplicate-key@33:2:14"]);
    expect(result.issues.map((i) => [i.key, i.path])).toEqual([
      ["a", "/a"],
      ["a", "/a"],
      ["k/~", "/x/k~1~0"],
    ]);
    expect(result.value).toEqual({ a: 3, x: { "k/~": [] } });
  });

  it("does not confuse keys with inherited property names", () => {
    const result = parseJson('{"constructor":1,"toString":2,"hasOwnProperty":3,"valueOf":{}}');
    expect(result.ok).toBe(true);
    expect(Object.keys(result.value as object)).toEqual(["constructor", "toString", "hasOwnProperty", "valueOf"]);
  });

  it("keeps equal keys in different objects apart", () => {
    expect(parseJson('[{"a":1},{"a":2},{"b":{"a":3}}]').ok).toBe(true);
  });
});

describe("parseJson: __proto__ is an ordinary key", () => {
  it("stores __proto__ as an own enumerable property and never touches the prototype", () => {
    const result = parseJson('{"__proto__":{"polluted":true},"a":1}');
    expect(result.ok).toBe(true);
    const obj = result.value as JsonObject;
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(Object.keys(obj)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(obj, "__proto__")).toEqual({
      value: { polluted: true },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect((obj as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("detects a duplicate __proto__ (also escaped) and keeps the later value", () => {
    const result = parseJson('{"__proto__":1,"__proto\\u005f_":[2]}');
    expect(where(result)).toEqual(["duplicate-key@15:1:16"]);
    expect(result.issues[0]).toMatchObject({ key: "__proto__", path: "/__proto__" });
    expect(Object.getOwnPropertyDescriptor(result.value as object, "__proto__")?.value).toEqual([2]);
  });
});

describe("parseJson: lone surrogates in \\u escapes", () => {
  it.each([
    ['"\\ud800"', 1, "\ud800"],
    ['"a\\udc00b"', 2, "a\udc00b"],
    ['"\\ud800\\u0041"', 1, "\ud800A"],
    ['"\\ud800x"', 1, "\ud800x"],
    ['"\\ud800\\ud800\\udc00"', 1, "\ud800\ud800\udc00"],
    ['"\\ud83d\\ude00\\ude00"', 13, "\u{1f600}\ude00"],
  ])("%s → lone-surrogate at %i, code unit kept", (input, offset, value) => {
    const result = parseJson(input);
    expect(result.value).toBe(value);
    expect(result.issues).toEqual([expect.objectContaining({ kind: "lone-surrogate", offset, path: "" })]);
  });

  it("accepts proper pairs in either hex case", () => {
    expect(parseJson('"\\ud83d\\ude00 \\uD83D\\uDE00"')).toMatchObject({ ok: true, value: "😀 😀" });
  });

  it("reports lone surrogates in keys with the member's path", () => {
    const issue = single('{"a":{"\\udfff":1}}');
    expect(issue).toMatchObject({ kind: "lone-surrogate", offset: 7, path: "/a/\udfff" });
  });
});

describe("parseJson: size limit", () => {
  it("reports input longer than maxBytes at offset maxBytes but parses everything", () => {
    const result = parseJson("[1,2,3,4,5,6]", { maxBytes: 10 });
    expect(result.value).toEqual([1, 2, 3, 4, 5, 6]);
    expect(where(result)).toEqual(["size@10:1:11"]);
  });

  it("allows exactly maxBytes, counting bytes not UTF-16 units", () => {
    expect(parseJson('"éé"', { maxBytes: 6 }).ok).toBe(true);
    expect(where(parseJson('"éé"', { maxBytes: 5 }))).toEqual(["size@5:1:6"]);
  });

  it("uses a 1 MiB default", () => {
    const atLimit = `"${"x".repeat(1_048_574)}"`;
    expect(parseJson(atLimit).ok).toBe(true);
    expect(where(parseJson(atLimit + " "))).toEqual(["size@1048576:1:1048577"]);
  });
});

describe("parseJson: several problems at once", () => {
  it("reports every distinct non-fatal problem, sorted by offset", () => {
    const input = '\ufeff{"n":18446744073709551616,\n"f":1e400,"n":"\\udc00",\n"d":[[1]]} x';
    const result = parseJson(input, { maxDepth: 1 });
    expect(where(result)).toEqual([
      "bom@0:1:1",
      "integer-range@8:1:9",
      "non-finite-number@34:2:5",
      "duplicate-key@40:2:11",
      "lone-surrogate@45:2:16",
      "depth@59:3:6",
      "trailing-data@65:3:12",
    ]);
    expect(result.value).toEqual({ n: "\udc00", f: Infinity, d: [[1]] });
  });

  it("stops collecting after maxIssues but always records a fatal syntax error", () => {
    expect(where(parseJson("[1e400,1e400,1e400]", { maxIssues: 2 }))).toEqual([
      "non-finite-number@1:1:2",
      "non-finite-number@7:1:8",
    ]);
    expect(where(parseJson("[1e400,1e400,x", { maxIssues: 1 }))).toEqual(["non-finite-number@1:1:2", "syntax@13:1:14"]);
    expect(parseJson("[1e400]", { maxIssues: 0 }).ok).toBe(false);
  });
});

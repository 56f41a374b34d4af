import { describe, expect, it } from "vitest";
import { parseJson, positionAt } from "../../../src/core/json/index.js";
import { bytesOf, single, where } from "./helpers.js";

describe("parseJson: syntax errors are fatal and precisely located", () => {
  it.each([
    ['{"a":1,}', 7, "trailing comma in object"],
    ["[1,]", 3, "trailing comma in array"],
    ["[1 2]", 3, "missing comma"],
    ['{"a" 1}', 5, "missing colon"],
    ["{1:2}", 1, "non-string key"],
    ["{'a':1}", 1, "single-quoted key"],
    ["'a'", 0, "single quotes"],
    ["NaN", 0, "NaN"],
    ["Infinity", 0, "Infinity"],
    ["-Infinity", 1, "-Infinity"],
    ["// c\n1", 0, "line comment"],
    ["/* c */ 1", 0, "block comment"],
    ["01", 1, "leading zero"],
    ["-01", 2, "leading zero after minus"],
    ["+1", 0, "plus sign"],
    [".5", 0, "missing integer part"],
    ["1.e5", 2, "missing fraction digits"],
    ["[1e+]", 4, "missing exponent digits"],
    ["tru", 3, "truncated literal (end of input)"],
    ["[nul]", 4, "bad literal"],
    ["True", 0, "capitalised literal"],
    ['"abc', 4, "unterminated string"],
    ['"a\\x"', 2, "invalid escape"],
    ['"\\u12G4"', 1, "bad hex digit"],
    ['"\\u12"', 1, "short \\u escape"],
    ["[", 1, "unclosed array"],
    ['{"a":1', 6, "unclosed object"],
    ["]", 0, "stray closer"],
    ["[1}", 2, "mismatched closer"],
    ["\f1", 0, "form feed is not whitespace"],
    ["\u00a01", 0, "no-break space is not whitespace"],
    ["[é]", 1, "non-ASCII outside strings"],
  ])("%j → syntax at %i (%s)", (input, offset) => {
    const result = parseJson(input);
    expect(result.ok).toBe(false);
    expect(result.value).toBeUndefined();
    expect(result.end).toBe(offset);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ kind: "syntax", offset, line: 1, column: offset + 1 });
    expect(result.issues[0]!.message.length).toBeGreaterThan(0);
  });

  it("rejects raw control characters inside strings", () => {
    expect(single('"a\tb"')).toMatchObject({ kind: "syntax", offset: 2 });
    expect(single('"a\nb"')).toMatchObject({ kind: "syntax", offset: 2, line: 1, column: 3 });
    expect(single(bytesOf('"', [0x00], '"'))).toMatchObject({ kind: "syntax", offset: 1 });
    expect(single(bytesOf('"', [0x1f], '"'))).toMatchObject({ kind: "syntax", offset: 1 });
    expect(parseJson(bytesOf('"', [0x7f], '"')).value).toBe("\u007f");
  });

  it("counts lines by LF only and columns in bytes", () => {
    expect(single('{\n  "a": tru\n}')).toMatchObject({ kind: "syntax", offset: 12, line: 2, column: 11 });
    expect(single("[\r\n1,\r\n x]")).toMatchObject({ kind: "syntax", offset: 8, line: 3, column: 2 });
    // "é" is two bytes: the column after it counts both.
    expect(single('["é",\n "é" x]')).toMatchObject({ kind: "syntax", offset: 13, line: 2, column: 7 });
  });

  it("stops at the first syntax error (later problems are not parsed)", () => {
    const result = parseJson('[1,,{"a":1,"a":2}]');
    expect(where(result)).toEqual(["syntax@3:1:4"]);
  });

  it("accepts all four whitespace characters everywhere", () => {
    const doc = ' \t\r\n{ "a" :\t[ 1 ,\r\n2 ] , "b" : null }';
    const result = parseJson(doc + "\n ");
    expect(result).toEqual({ ok: true, value: { a: [1, 2], b: null }, end: doc.length, issues: [] });
  });
});

describe("parseJson: empty input and BOM", () => {
  it("reports empty input (fatal)", () => {
    expect(parseJson("")).toEqual({
      ok: false,
      end: 0,
      issues: [{ kind: "empty", message: expect.any(String), offset: 0, line: 1, column: 1 }],
    });
    expect(where(parseJson(new Uint8Array(0)))).toEqual(["empty@0:1:1"]);
  });

  it("reports whitespace-only input as empty, located at the end", () => {
    const result = parseJson("  \n ");
    expect(result.value).toBeUndefined();
    expect(where(result)).toEqual(["empty@4:2:2"]);
  });

  it("reports a leading BOM but still parses after it", () => {
    const fromString = parseJson('\ufeff{"a":1}');
    expect(fromString.ok).toBe(false);
    expect(fromString.value).toEqual({ a: 1 });
    expect(fromString.end).toBe(10);
    expect(where(fromString)).toEqual(["bom@0:1:1"]);
    const fromBytes = parseJson(bytesOf([0xef, 0xbb, 0xbf], " [true] "));
    expect(fromBytes.value).toEqual([true]);
    expect(where(fromBytes)).toEqual(["bom@0:1:1"]);
  });

  it("reports BOM-only input as bom + empty", () => {
    expect(where(parseJson("\ufeff"))).toEqual(["bom@0:1:1", "empty@3:1:4"]);
  });

  it("treats a BOM that is not leading as data", () => {
    expect(where(parseJson("[1]\ufeff"))).toEqual(["trailing-data@3:1:4"]);
    expect(where(parseJson("[\ufeff1]"))).toEqual(["syntax@1:1:2"]);
    expect(parseJson('"\ufeffx"').value).toBe("\ufeffx");
  });
});

describe("parseJson: trailing data", () => {
  it.each([
    ["{} {}", 3, 2, {}],
    ["1 2", 2, 1, 1],
    ["[1]x", 3, 3, [1]],
    ["truex", 4, 4, true],
    ['"a""b"', 3, 3, "a"],
    ["123abc", 3, 3, 123],
    ["null\n\n,", 6, 4, null],
  ])("%j → trailing-data at %i, end %i", (input, offset, end, value) => {
    const result = parseJson(input);
    expect(result.ok).toBe(false);
    expect(result.value).toEqual(value);
    expect(result.end).toBe(end);
    expect(result.issues).toEqual([expect.objectContaining({ kind: "trailing-data", offset })]);
  });

  it("does not flag trailing whitespace", () => {
    expect(parseJson("[1] \n\t\r\n")).toEqual({ ok: true, value: [1], end: 3, issues: [] });
  });

  it("reports a second document only once, on its own line", () => {
    expect(where(parseJson('{"a":1}\n{"a":1}\n{"a":1}\n'))).toEqual(["trailing-data@8:2:1"]);
  });
});

describe("positionAt", () => {
  it("converts byte offsets to line and byte column", () => {
    expect(positionAt("é\nab", 0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(positionAt("é\nab", 2)).toEqual({ offset: 2, line: 1, column: 3 });
    expect(positionAt("é\nab", 4)).toEqual({ offset: 4, line: 2, column: 2 });
    expect(positionAt(bytesOf("a\r\nb"), 3)).toEqual({ offset: 3, line: 2, column: 1 });
  });

  it("allows the end-of-input position and beyond, rejects negative offsets", () => {
    expect(positionAt("a\n", 2)).toEqual({ offset: 2, line: 2, column: 1 });
    expect(positionAt("a\n", 5)).toEqual({ offset: 5, line: 2, column: 4 });
    expect(() => positionAt("a", -1)).toThrow(RangeError);
  });
});

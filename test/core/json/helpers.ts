import { parseJson, type JsonIssue, type ParseOptions, type ParseResult } from "../../../src/core/json/index.js";

/** Builds a byte array from a mix of ASCII text and raw byte values. */
export function bytesOf(...parts: (string | number[])[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === "string") {
      for (const ch of part) {
        const code = ch.charCodeAt(0);
        if (code > 0x7f) throw new Error("bytesOf: use raw byte arrays for non-ASCII");
        out.push(code);
      }
    } else {
      out.push(...part);
    }
  }
  return Uint8Array.from(out);
}

/** The issues reduced to kind@offset:line:column, easy to compare exactly. */
export function where(result: ParseResult): string[] {
  return result.issues.map((i) => `${i.kind}@${i.offset}:${i.line}:${i.column}`);
}

/** Parses and expects exactly one issue; returns it. */
export function single(input: Uint8Array | string, options?: ParseOptions): JsonIssue {
  const result = parseJson(input, options);
  if (result.issues.length !== 1) throw new Error(`expected one issue, got ${JSON.stringify(result.issues)}`);
  return result.issues[0]!;
}

/** A decoded JSON value. `bigint` appears only for integer tokens in lossless mode. */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object as produced by the reader (ordinary prototype, `__proto__` stored as an own property). */
export type JsonObject = { [key: string]: JsonValue };

export type JsonIssueKind =
  | "syntax"
  | "empty"
  | "bom"
  | "invalid-utf8"
  | "duplicate-key"
  | "trailing-data"
  | "depth"
  | "size"
  | "non-finite-number"
  | "integer-range"
  | "lone-surrogate";

/** offset: 0-based byte offset; line: 1-based (counts LF only); column: 1-based, in bytes since the last LF. */
export interface JsonPosition {
  offset: number;
  line: number;
  column: number;
}

export interface JsonIssue extends JsonPosition {
  kind: JsonIssueKind;
  message: string;
  /** The duplicated key, decoded (duplicate-key only). */
  key?: string;
  /** JSON Pointer (RFC 6901) of the value concerned, "" for the root, when known. */
  path?: string;
}

export interface ParseOptions {
  /** Inputs longer than this get a `size` issue (parsing still completes). Default 1_048_576. */
  maxBytes?: number;
  /** Values nested deeper than this get one `depth` issue. Default 32. */
  maxDepth?: number;
  /** "lossless" returns integer tokens as bigint (except `-0`). Default "number". */
  numbers?: "number" | "lossless";
  /**
   * "exact" (default) reads decimal and exponent tokens as the correctly rounded f64;
   * "serde_json" reads them as serde_json's default (best effort) reader does, see serde-float.ts.
   */
  floats?: "exact" | "serde_json";
  /** Stop collecting non-fatal issues after this many (minimum 1). Default 100. */
  maxIssues?: number;
}

export interface ParseResult {
  /** true iff `issues` is empty. */
  ok: boolean;
  /** The first document, present whenever it was syntactically complete. */
  value?: JsonValue;
  /** Byte offset just after the first document, or where parsing stopped. */
  end: number;
  issues: JsonIssue[];
}

export const DEFAULT_MAX_BYTES = 1_048_576;
export const DEFAULT_MAX_DEPTH = 32;
export const DEFAULT_MAX_ISSUES = 100;

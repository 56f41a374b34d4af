export type {
  JsonIssue,
  JsonIssueKind,
  JsonObject,
  JsonPosition,
  JsonValue,
  ParseOptions,
  ParseResult,
} from "./types.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ISSUES } from "./types.js";
export { parseJson, positionAt } from "./reader.js";
export { canonicalJson, formatF64 } from "./canonical.js";
export { wireJson } from "./writer.js";

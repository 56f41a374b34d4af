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
export { canonicalJson, canonicalJsonParts, canonicalReadBack, canonicalReadBackParts, formatF64 } from "./canonical.js";
export { DEFAULT_DIGEST_DIALECT, DIGEST_DIALECTS, dialectName, digestDialect, isDigestDialect, type DigestDialect, type DigestDialectId } from "./dialects.js";
export { serdeReadFloat, serdeReadsExactly } from "./serde-float.js";
export { integerInRange } from "./numbers.js";
export { utf8Join, wireBytes, wireJson } from "./writer.js";

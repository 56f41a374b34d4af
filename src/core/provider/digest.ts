import { createHash } from "node:crypto";
import { KitError } from "../errors.js";
import { canonicalJson, canonicalReadBackParts, DEFAULT_DIGEST_DIALECT, DIGEST_DIALECTS, parseJson, wireJson, type DigestDialectId, type JsonValue } from "../json/index.js";

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * The request as a Provider built on the upstream library reads it from its wire bytes:
 * integer tokens stay integers, other numbers are f64 as serde_json's reader makes them,
 * and input_digest is left out.
 */
function unboundValue(request: JsonValue | Uint8Array | string): { [key: string]: JsonValue } {
  const wire = request instanceof Uint8Array || typeof request === "string" ? request : wireJson(request);
  const parsed = parseJson(wire, { numbers: "lossless", floats: "serde_json" });
  // Size, depth and integer range do not change what the bytes mean, so the kit can bind
  // requests it sends to test exactly those limits.
  const blocking = parsed.issues.filter((issue) => !["size", "depth", "integer-range"].includes(issue.kind));
  if (parsed.value === undefined || blocking.length > 0) {
    const first = blocking[0] ?? parsed.issues[0];
    const where = first ? ` (${first.kind} at line ${first.line}, column ${first.column}: ${first.message})` : "";
    throw new KitError("usage", `cannot compute input_digest: the request is not one unambiguous JSON value${where}`);
  }
  const value = parsed.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new KitError("usage", "cannot compute input_digest: the request is not a JSON object");
  }
  return withoutDigest(value);
}

/** A copy of the request object without input_digest (a key such as __proto__ stays an own member). */
function withoutDigest(value: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  const rest: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== "input_digest") Object.defineProperty(rest, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return rest;
}

/** SHA-256 of a text's UTF-8, lowercase hex; the text may come in parts (serializeParts), hashed one after another. */
export function sha256Hex(text: string | readonly string[]): string {
  const sha = createHash("sha256");
  for (const part of typeof text === "string" ? [text] : text) sha.update(part, "utf8");
  return sha.digest("hex");
}

const hash = (canonical: string | readonly string[]): string => `sha256:${sha256Hex(canonical)}`;

/**
 * The canonical text of a request (input_digest left out), as the kit's reader reads its wire
 * text. Bytes and text are read; a request value is written straight from the value (canonicalReadBack), not written, read back and
 * rewritten, which cost the fuzzer a sixth of its generating and copied a long string several
 * times. A value that would not read back as one plain value (a lone surrogate, a number out of
 * range) takes the plain way, which says what is wrong.
 */
function canonicalText(request: JsonValue | Uint8Array | string, dialect: DigestDialectId): string | string[] {
  if (request !== null && typeof request === "object" && !Array.isArray(request) && !(request instanceof Uint8Array)) {
    try {
      // In parts: a megabyte string in tool.input is hashed as it is, not copied into one long text first.
      return canonicalReadBackParts(withoutDigest(request), dialect);
    } catch {
      // Read back below: the same text, or the error that tells why there is none.
    }
  }
  return canonicalJson(unboundValue(request), dialect);
}

/**
 * The input_digest binding exactly as upstream computes it: sha256 over serde_json's
 * compact, key-sorted serialization of the request without input_digest, with floats
 * written in the given dialect (the serde_json version's float formatter).
 */
export function computeInputDigest(request: JsonValue | Uint8Array | string, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string {
  return hash(canonicalText(request, dialect));
}

/** The digest of the request in every known dialect, in registry order. */
export function inputDigests(request: JsonValue | Uint8Array | string): { dialect: DigestDialectId; digest: string }[] {
  const value = unboundValue(request);
  return DIGEST_DIALECTS.map((d) => ({ dialect: d.id, digest: hash(canonicalJson(value, d.id)) }));
}

/**
 * Bytes that may hold a float the dialects write differently. They differ only in exponent
 * notation (dialects.ts), which serde_json uses for magnitudes of 1e16 and more (and below
 * 1e-5, where they agree); a number token that reads as such a float has an exponent or at
 * least 16 integer digits. Bytes with neither outside their strings cannot be dialect-sensitive
 * (a malformed request may pass for sensitive, and is then read whole).
 */
const MAY_BE_SENSITIVE = /[0-9][eE]|[0-9]{16}/;
const STRING_TOKEN = /"(?:[^"\\]+|\\.)*"/g;
const mayBeSensitive = (text: string): boolean => MAY_BE_SENSITIVE.test(text.replace(STRING_TOKEN, '""'));

/** Whether the dialects disagree about the request's digest (it carries a float they write differently). */
export function dialectSensitive(request: JsonValue | Uint8Array | string): boolean {
  if (request instanceof Uint8Array && !mayBeSensitive(Buffer.from(request.buffer, request.byteOffset, request.byteLength).toString("latin1"))) return false;
  if (typeof request === "string" && !mayBeSensitive(request)) return false;
  return new Set(inputDigests(request).map((d) => d.digest)).size > 1;
}

/** config_revision: SHA-256 of the caller's exact configuration document, lowercase hex. */
export function configRevision(document: string | Uint8Array): string {
  return createHash("sha256").update(document).digest("hex");
}

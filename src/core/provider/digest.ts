import { createHash, randomBytes } from "node:crypto";
import { KitError } from "../errors.js";
import { canonicalJson, DEFAULT_DIGEST_DIALECT, DIGEST_DIALECTS, parseJson, wireJson, type DigestDialectId, type JsonValue } from "../json/index.js";
import { serialize, type SerializeStyle } from "../json/serialize.js";
import { wireStyle } from "../json/writer.js";

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
  const rest: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== "input_digest") Object.defineProperty(rest, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return rest;
}

function hash(canonical: string): string {
  return `sha256:${createHash("sha256").update(canonical, "utf8").digest("hex")}`;
}

/** String values at least this long are not written and read back when a request value is canonicalized (see canonicalText). */
const LONG_STRING = 4096;
const SURROGATE = /[\ud800-\udfff]/;
/** Stands for a long string while the rest of the request is written and read back; the nonce keeps it out of any request's own text. */
const MARK = `awp-conformance-long-string-${randomBytes(8).toString("hex")}-`;

/**
 * The canonical text of a request value (input_digest left out), as the kit's reader reads its
 * wire text. A long string without surrogates reads back exactly as written and its canonical
 * text does not depend on where it sits, so it is not written, read back and rewritten with the
 * rest (a 1 MiB padding string cost several milliseconds each way): the request is written with
 * a mark in its place, and the string's canonical text is put in at the mark. A mark not found
 * exactly once (a request holding the mark's own text) falls back to the plain way.
 */
function canonicalText(request: JsonValue, dialect: DigestDialectId): string {
  const long: string[] = [];
  const marking: SerializeStyle = {
    ...wireStyle,
    key: wireStyle.string,
    string: (s) => (s.length >= LONG_STRING && !SURROGATE.test(s) ? `"${MARK}${long.push(s) - 1}"` : wireStyle.string(s)),
  };
  let text = canonicalJson(unboundValue(serialize(request, marking)), dialect);
  for (const [i, s] of long.entries()) {
    const mark = `"${MARK}${i}"`;
    const at = text.indexOf(mark);
    if (at < 0 || text.indexOf(mark, at + mark.length) >= 0) return canonicalJson(unboundValue(wireJson(request)), dialect);
    text = `${text.slice(0, at)}${canonicalJson(s)}${text.slice(at + mark.length)}`;
  }
  return text;
}

/**
 * The input_digest binding exactly as upstream computes it: sha256 over serde_json's
 * compact, key-sorted serialization of the request without input_digest, with floats
 * written in the given dialect (the serde_json version's float formatter).
 */
export function computeInputDigest(request: JsonValue | Uint8Array | string, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string {
  if (request instanceof Uint8Array || typeof request === "string") return hash(canonicalJson(unboundValue(request), dialect));
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

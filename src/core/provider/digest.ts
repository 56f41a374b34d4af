import { createHash } from "node:crypto";
import { KitError } from "../errors.js";
import { canonicalJson, DEFAULT_DIGEST_DIALECT, DIGEST_DIALECTS, parseJson, wireJson, type DigestDialectId, type JsonValue } from "../json/index.js";

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

/**
 * The input_digest binding exactly as upstream computes it: sha256 over serde_json's
 * compact, key-sorted serialization of the request without input_digest, with floats
 * written in the given dialect (the serde_json version's float formatter).
 */
export function computeInputDigest(request: JsonValue | Uint8Array | string, dialect: DigestDialectId = DEFAULT_DIGEST_DIALECT): string {
  return hash(canonicalJson(unboundValue(request), dialect));
}

/** The digest of the request in every known dialect, in registry order. */
export function inputDigests(request: JsonValue | Uint8Array | string): { dialect: DigestDialectId; digest: string }[] {
  const value = unboundValue(request);
  return DIGEST_DIALECTS.map((d) => ({ dialect: d.id, digest: hash(canonicalJson(value, d.id)) }));
}

/** Whether the dialects disagree about the request's digest (it carries a float they write differently). */
export function dialectSensitive(request: JsonValue | Uint8Array | string): boolean {
  return new Set(inputDigests(request).map((d) => d.digest)).size > 1;
}

/** config_revision: SHA-256 of the caller's exact configuration document, lowercase hex. */
export function configRevision(document: string | Uint8Array): string {
  return createHash("sha256").update(document).digest("hex");
}

import { createHash } from "node:crypto";
import { KitError } from "../errors.js";
import { canonicalJson, parseJson, wireJson, type JsonValue } from "../json/index.js";

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/**
 * The input_digest binding exactly as upstream computes it: sha256 over serde_json's
 * compact, key-sorted serialization of the request without input_digest. The request
 * is read from its wire bytes in lossless mode, so the digest describes exactly what
 * a serde_json parser would see (integer tokens stay integers, decimals are f64).
 */
export function computeInputDigest(request: JsonValue | Uint8Array | string): string {
  const wire = request instanceof Uint8Array || typeof request === "string" ? request : wireJson(request);
  const parsed = parseJson(wire, { numbers: "lossless" });
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
  return `sha256:${createHash("sha256").update(canonicalJson(rest), "utf8").digest("hex")}`;
}

/** config_revision: SHA-256 of the caller's exact configuration document, lowercase hex. */
export function configRevision(document: string | Uint8Array): string {
  return createHash("sha256").update(document).digest("hex");
}

import { DEFAULT_DIGEST_DIALECT, wireJson, type DigestDialectId } from "../../core/json/index.js";
import { computeInputDigest } from "../../core/provider/digest.js";
import { bind } from "../../core/provider/requests.js";
import type { JsonObject } from "../../core/provider/types.js";
import type { ProviderCase } from "../types.js";
import { encoder, rebased } from "./case.js";

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("latin1");

/** Replaces every occurrence of one digest string by another (same length, ASCII) in the bytes. */
function swap(bytes: Uint8Array, from: string, to: string): Uint8Array {
  if (from === to) return bytes;
  const text = latin1(bytes);
  return text.includes(from) ? new Uint8Array(Buffer.from(text.split(from).join(to), "latin1")) : bytes;
}

/** The request's own binding moved to `dialect`, when it was bound (in the kit's default dialect) over itself. */
function rebindValue(value: JsonObject, dialect: DigestDialectId): JsonObject {
  const own = computeInputDigest(value, DEFAULT_DIGEST_DIALECT);
  return value.input_digest === own ? { ...value, input_digest: computeInputDigest(value, dialect) } : value;
}

/**
 * The case bound in `dialect` instead of the kit's default: valid requests are bound again;
 * in a hostile case every digest the generator computed (of its base under the hostile id,
 * or of the hostile request itself) is swapped for that dialect's, and a defect in the digest
 * itself (malformed, one digit off) stays a defect. A case the dialects agree about is unchanged.
 */
export function inDialect(c: ProviderCase, dialect: DigestDialectId): ProviderCase {
  if (dialect === DEFAULT_DIGEST_DIALECT || c.method !== "invoke") return c;
  if (c.kind === "valid") {
    if (c.value === undefined) return c;
    const value = bind(c.value, dialect);
    return { ...c, value, bytes: encoder.encode(wireJson(value)) };
  }
  const base = c.base ? inDialect(c.base, dialect) : undefined;
  let bytes = c.bytes;
  let value = c.value;
  if (c.base?.value !== undefined) {
    const original = rebased(c.base);
    bytes = swap(bytes, String(original.input_digest), computeInputDigest(original, dialect));
  }
  if (value !== undefined) {
    const moved = rebindValue(value, dialect);
    bytes = swap(bytes, String(value.input_digest), String(moved.input_digest));
    value = moved;
  }
  return { ...c, bytes, ...(value !== undefined ? { value } : {}), ...(base !== undefined ? { base } : {}) };
}

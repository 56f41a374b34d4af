import { KitError } from "../../core/errors.js";
import { wireJson, type JsonValue } from "../../core/json/index.js";
import { bind } from "../../core/provider/requests.js";
import type { HostileKind, JsonObject } from "../../core/provider/types.js";
import { describeSchemaErrors, kitSchema } from "../../core/schema.js";
import type { ProviderCase } from "../types.js";
import type { Text } from "./sized-bytes.js";

export const encoder = new TextEncoder();

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The object at `path` inside a request (throws when the request does not have one there). */
export function objectAt(request: JsonObject, path: readonly string[]): JsonObject {
  let current: JsonValue | undefined = request;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  if (!isObject(current)) throw new KitError("kit_bug", `fuzz request has no object at /${path.join("/")}`);
  return current;
}

/** A copy of the request with the object at `path` replaced by `change(copy of it)`. */
export function updateAt(request: JsonObject, path: readonly string[], change: (object: JsonObject) => JsonObject): JsonObject {
  if (path.length === 0) return change({ ...request });
  const [head, ...rest] = path as [string, ...string[]];
  return { ...request, [head]: updateAt(objectAt(request, [head]), rest, change) };
}

export function withTool(request: JsonObject, change: (tool: JsonObject) => JsonObject): JsonObject {
  return updateAt(request, ["event", "tool"], change);
}

/** The id a hostile case uses: its base's id with "-h", kept within 128 printable characters. */
export function hostileId(base: ProviderCase): string {
  return `${base.requestId.slice(0, 126)}-h`;
}

/** The base request under the hostile id, re-bound. */
export function rebased(base: ProviderCase): JsonObject {
  return bind(renamed(base));
}

/** The base request under the hostile id, without its input_digest: for a change that is bound afterwards (binding it first would be wasted). */
export function renamed(base: ProviderCase): JsonObject {
  const { input_digest: _bound, ...unbound } = baseValue(base);
  return { ...unbound, request_id: hostileId(base) };
}

export function baseValue(base: ProviderCase): JsonObject {
  if (base.value === undefined) throw new KitError("kit_bug", "a hostile fuzz case needs a base with a request value");
  return base.value;
}

/**
 * A valid invoke case, checked against the kit's request schema (a mismatch is a bug of this
 * generator); `bytes` default to its wire form. `checked` is what the schema sees: by default
 * the value, for a request with size-planned values its shell (each such value a string in its
 * place: they sit where the schema admits any value, and are not built for the check).
 */
export function validCase(label: string, value: JsonObject, budgetMs: number, bytes: Uint8Array = encoder.encode(wireJson(value)), checked: JsonObject = value): ProviderCase {
  const schema = kitSchema("provider/request.schema.json");
  if (!schema(checked)) throw new KitError("kit_bug", `generated an invalid invoke request (${label}): ${describeSchemaErrors(schema.errors)}`);
  const requestId = String(value.request_id);
  return { kind: "valid", label, purpose: "invoke", method: "invoke", requestId, bytes, value, budgetMs };
}

/** A hostile case whose bytes are `value` as the kit writes it. */
export function hostileFromValue(kind: HostileKind, label: string, base: ProviderCase, value: JsonObject): ProviderCase {
  return hostileFromBytes(kind, label, base, value, encoder.encode(wireJson(value)), true);
}

/** A hostile case from raw bytes; `like` gives its method and request id (and its value when `exact`). */
export function hostileFromBytes(kind: HostileKind, label: string, base: ProviderCase, like: JsonObject, bytes: Uint8Array, exact = false): ProviderCase {
  const method = typeof like.method === "string" ? like.method : base.method;
  const requestId = typeof like.request_id === "string" ? like.request_id : base.requestId;
  const hostile: ProviderCase = { kind: "hostile", label, purpose: `hostile:${kind}`, method, requestId, bytes, base };
  if (exact) hostile.value = like;
  if (base.budgetMs !== undefined) hostile.budgetMs = base.budgetMs;
  return hostile;
}

/**
 * A plain Uint8Array of `length` bytes left as the allocator gave them: for a buffer the caller
 * writes whole at once (zeroing a megabyte request first cost as much as copying it in).
 */
export function unfilledBytes(length: number): Uint8Array {
  const buffer = Buffer.allocUnsafeSlow(length);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
}

/** Bytes, or a text that writes its own (sized-bytes.ts). */
export type Piece = Uint8Array | Text;

/** The pieces written one after another into one buffer, and where each text went. */
export function joined(pieces: readonly Piece[]): { bytes: Uint8Array; at: Map<Text, number> } {
  const bytes = unfilledBytes(pieces.reduce((n, piece) => n + piece.length, 0));
  const at = new Map<Text, number>();
  let offset = 0;
  for (const piece of pieces) {
    if (piece instanceof Uint8Array) bytes.set(piece, offset);
    else {
      piece.write(bytes, offset);
      at.set(piece, offset);
    }
    offset += piece.length;
  }
  return { bytes, at };
}

export const concatBytes = (...parts: Uint8Array[]): Uint8Array => joined(parts).bytes;

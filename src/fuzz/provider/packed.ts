/**
 * A provider case made in the generator thread (generator-thread.ts) and sent to the campaign's
 * thread: its bytes in a buffer of their own (transferred, not copied again), its value copied
 * with each lazy member (lazy.ts) left as its recipe, to be built there only if something reads
 * it, as here; and what the coverage counts of it, measured where its shapes are known
 * (coverage.ts). Unpacked, it is the same case: the same bytes, the same value when read.
 */
import type { JsonValue } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import type { ProviderCase } from "../types.js";
import { knowMeasure, measureCase, type CaseMeasure } from "./coverage.js";
import { defineLazy, lazyRecipe, once } from "./lazy.js";
import { buildCycled, type CycledRecipe } from "./sized.js";

/** A lazy member of a packed value: where it sits, and what builds it. */
interface LazyMember {
  path: string[];
  recipe: CycledRecipe;
}

export interface PackedCase {
  kind: ProviderCase["kind"];
  label: string;
  purpose: ProviderCase["purpose"];
  method: string;
  requestId: string;
  bytes: Uint8Array;
  value?: { light: JsonObject; lazy: LazyMember[] };
  base?: PackedCase;
  budgetMs?: number;
  measure: CaseMeasure;
}

/** Sets `object[key]` as an own data member, whatever the key ("__proto__" included). */
function put(object: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === "__proto__") Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

/**
 * A copy of `value` without its lazy members (null in their places, listed in `lazy` by path);
 * a container met twice is copied once, as a structured clone keeps it.
 */
function lightCopy(value: JsonValue, path: string[], lazy: LazyMember[], copies: Map<object, JsonValue>): JsonValue {
  if (value === null || typeof value !== "object") return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const array: JsonValue[] = new Array<JsonValue>(value.length);
    copies.set(value, array);
    for (let i = 0; i < value.length; i++) array[i] = lightCopy(value[i] as JsonValue, [...path, String(i)], lazy, copies);
    return array;
  }
  const object: { [key: string]: JsonValue } = {};
  copies.set(value, object);
  for (const key of Object.keys(value)) {
    const recipe = lazyRecipe(value, key);
    if (recipe !== undefined) {
      lazy.push({ path: [...path, key], recipe });
      put(object, key, null);
    } else put(object, key, lightCopy(value[key] as JsonValue, [...path, key], lazy, copies));
  }
  return object;
}

/** The case packed; the buffers to transfer with it are added to `transfer`. */
export function packCase(c: ProviderCase, transfer: ArrayBuffer[]): PackedCase {
  // A buffer of their own: the generator's buffers may be shared (a pooled Buffer) or used again.
  const bytes = new Uint8Array(c.bytes);
  transfer.push(bytes.buffer as ArrayBuffer);
  const packed: PackedCase = { kind: c.kind, label: c.label, purpose: c.purpose, method: c.method, requestId: c.requestId, bytes, measure: measureCase(c) };
  if (c.value !== undefined) {
    const lazy: LazyMember[] = [];
    packed.value = { light: lightCopy(c.value, [], lazy, new Map()) as JsonObject, lazy };
  }
  if (c.base !== undefined) packed.base = packCase(c.base, transfer);
  if (c.budgetMs !== undefined) packed.budgetMs = c.budgetMs;
  return packed;
}

/** The case a packed one stands for; its lazy members are built when first read. */
export function unpackCase(p: PackedCase): ProviderCase {
  const c: ProviderCase = { kind: p.kind, label: p.label, purpose: p.purpose, method: p.method, requestId: p.requestId, bytes: p.bytes };
  if (p.value !== undefined) {
    const { light, lazy } = p.value;
    for (const { path, recipe } of lazy) {
      let parent: JsonValue = light;
      for (const key of path.slice(0, -1)) parent = (parent as { [key: string]: JsonValue })[key] as JsonValue;
      defineLazy(parent as { [key: string]: JsonValue }, path[path.length - 1] as string, once(() => buildCycled(recipe)), recipe);
    }
    c.value = light;
  }
  if (p.base !== undefined) c.base = unpackCase(p.base);
  if (p.budgetMs !== undefined) c.budgetMs = p.budgetMs;
  knowMeasure(c, p.measure);
  return c;
}

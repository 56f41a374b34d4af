/**
 * Members of a fuzz request built only when something reads them. A size-planned object of
 * tens of thousands of keys (sized.ts) costs tens of milliseconds to build as a JavaScript
 * object, while the request's bytes and digest come from its texts, and what judges a fuzzed
 * call reads of the request (its method, event, allowed_effects) is outside it. So the request
 * holds a getter in its place that builds the object on first read and then stays a plain
 * member: reading, copying or serializing the request sees the same value, in the same key
 * order, as if it had been built at once. The coverage walk takes the member's shape from
 * coverage.ts (knowShape) instead of reading it.
 */
import type { JsonValue } from "../../core/json/index.js";

/** Makes `parent[key]` (already a member: its key order stays) the value `build()` returns, built on first read. */
export function defineLazy(parent: { [key: string]: JsonValue }, key: string, build: () => JsonValue): void {
  const settle = (value: JsonValue): void => {
    Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  };
  Object.defineProperty(parent, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = build();
      settle(value);
      return value;
    },
    set: settle,
  });
}

/** A value computed once, on first call. */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

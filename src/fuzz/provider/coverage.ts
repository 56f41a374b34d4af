/** What the provider fuzzer measures on every request it sends: its kind and its sizes. */
import type { JsonValue } from "../../core/json/index.js";
import type { JsonObject } from "../../core/provider/types.js";
import { COUNT_SCALE, CoverageTally, KIB, MIB, type DimensionSpec, type Scale } from "../coverage.js";
import type { ProviderCase } from "../types.js";
import { isObject } from "./case.js";

const REQUEST_BYTES: Scale = [
  { name: "< 1 KiB", upTo: KIB - 1 },
  { name: "1–16 KiB", upTo: 16 * KIB - 1 },
  { name: "16–256 KiB", upTo: 256 * KIB - 1 },
  { name: "256 KiB – 1 MiB − 4 KiB", upTo: MIB - 4 * KIB - 1 },
  { name: "the last 4 KiB to 1 MiB", upTo: MIB },
  { name: "over 1 MiB", upTo: Infinity },
];

/** Depth of the deepest scalar in the request (the message limit is 32). */
const REQUEST_DEPTH: Scale = [
  { name: "≤ 4", upTo: 4 },
  { name: "5–9", upTo: 9 },
  { name: "10–19", upTo: 19 },
  { name: "20–31", upTo: 31 },
  { name: "32 (the limit)", upTo: 32 },
  { name: "over 32", upTo: Infinity },
];

export const PROVIDER_SIZES = {
  bytes: "request size",
  members: "largest array or object in tool.input / tool.result (members)",
  chars: "longest string in tool.input / tool.result (characters)",
  depth: "request depth (levels)",
} as const;

const DIMENSIONS: readonly DimensionSpec[] = [
  { name: PROVIDER_SIZES.bytes, of: "requests", scale: REQUEST_BYTES },
  { name: PROVIDER_SIZES.members, of: "requests", scale: COUNT_SCALE },
  { name: PROVIDER_SIZES.chars, of: "requests", scale: COUNT_SCALE },
  { name: PROVIDER_SIZES.depth, of: "requests", scale: REQUEST_DEPTH },
];

/** A high surrogate (matched per UTF-16 code unit: no u flag). */
const HIGH_SURROGATE = /[\ud800-\udbff]/;

/** Code points of a string, without copying it (a native scan first: most strings have no surrogate at all). */
function codePoints(text: string): number {
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export interface Shape {
  /** The largest container, in members. */
  members: number;
  /** The longest string, in code points. */
  chars: number;
  /** Containers on the deepest path. */
  depth: number;
}

const SCALAR: Shape = { members: 0, chars: 0, depth: 0 };
/**
 * Shapes of containers already measured: generated values share their members (a sized
 * collection repeats a few), so each distinct container is walked once.
 */
const shapes = new WeakMap<object, Shape>();
/**
 * Shapes of members known from how they were made (a size-planned value: sized.ts), by
 * container and key: the walk takes them instead of reading the member, which may not even
 * be built yet (lazy.ts) and may have hundreds of thousands of members of its own.
 */
const knownMembers = new WeakMap<object, Map<string, Shape>>();

/** Records the shape of `parent[key]`, known from how it was made. */
export function knowShape(parent: object, key: string, shape: Shape): void {
  const known = knownMembers.get(parent) ?? new Map<string, Shape>();
  known.set(key, shape);
  knownMembers.set(parent, known);
}

/** The shape of a collection of `count` members cycling through `members`: what walking it would find. */
export function cycledShape(members: readonly JsonValue[], count: number): Shape {
  // The distinct members it holds, walked as one collection; it has `count` members, not as many.
  const walked = shapeOf(members.slice(0, count));
  return { ...walked, members: Math.max(count, walked.members) };
}

/** The shape of a string: its code points. */
const stringShape = (text: string): Shape => ({ members: 0, chars: codePoints(text), depth: 0 });

/** The shape of `parent[key]`: known, or measured (a member known is not read). */
function memberShape(parent: object, key: string): Shape {
  return knownMembers.get(parent)?.get(key) ?? shapeOf((parent as { [key: string]: JsonValue })[key] as JsonValue);
}

/** One walk: the largest container, the longest string and the nesting of a value (at most 1000 deep, as generated). */
function shapeOf(value: JsonValue): Shape {
  if (typeof value === "string") return stringShape(value);
  if (value === null || typeof value !== "object") return SCALAR;
  const known = shapes.get(value);
  if (known !== undefined) return known;
  const inners = Array.isArray(value) ? value.map(shapeOf) : Object.keys(value).map((key) => memberShape(value, key));
  const shape: Shape = { members: inners.length, chars: 0, depth: 0 };
  for (const inner of inners) {
    if (inner.members > shape.members) shape.members = inner.members;
    if (inner.chars > shape.chars) shape.chars = inner.chars;
    if (inner.depth > shape.depth) shape.depth = inner.depth;
  }
  shape.depth += 1;
  shapes.set(value, shape);
  return shape;
}

/** The largest container (in members) and the longest string (in code points) anywhere in `values`. */
export function extremes(values: readonly JsonValue[]): { members: number; chars: number } {
  return fold(values.map(shapeOf));
}

function fold(found: readonly Shape[]): { members: number; chars: number } {
  return { members: Math.max(0, ...found.map((s) => s.members)), chars: Math.max(0, ...found.map((s) => s.chars)) };
}

/** Shapes of event.tool.input and event.tool.result (a missing one counts as null). */
function toolShapes(request: JsonObject | undefined): Shape[] {
  const event = request?.event;
  const tool = isObject(event) ? event.tool : undefined;
  return isObject(tool) ? ["input", "result"].map((key) => (key in tool ? memberShape(tool, key) : SCALAR)) : [];
}

/** Counts provider cases as they run: per kind ("valid", "hostile:<kind>") and per size bucket. */
export class ProviderCoverage {
  private readonly tally: CoverageTally;

  constructor(hostileKinds: readonly string[]) {
    this.tally = new CoverageTally(DIMENSIONS, ["valid", ...hostileKinds.map((k) => `hostile:${k}`)]);
  }

  /** A case that ran; a hostile case without a parsed value is measured on its base's value. */
  add(c: ProviderCase): void {
    this.tally.kind(c.kind === "valid" ? "valid" : c.purpose);
    this.tally.size(PROVIDER_SIZES.bytes, c.bytes.length);
    const value = c.value ?? c.base?.value;
    if (value === undefined) return;
    const { members, chars } = fold(toolShapes(value));
    this.tally.size(PROVIDER_SIZES.members, members);
    this.tally.size(PROVIDER_SIZES.chars, chars);
    this.tally.size(PROVIDER_SIZES.depth, shapeOf(value).depth);
  }

  summary(): ReturnType<CoverageTally["summary"]> {
    return this.tally.summary();
  }
}

import fc from "fast-check";
import type { JsonValue } from "../../core/json/index.js";
import { MAX_DEPTH } from "../../core/provider/types.js";
import { boundaryInteger, labelled, LIMIT_NUMBERS, simplestFirst, unicodeTextArb, type Labelled } from "./boundary.js";
import { fakeArb, VALUE_SCHEMAS } from "./jsf.js";
import { sizedPlanArb, type SizedPlan } from "./sized.js";

/** Containers around event.tool.input (request, event, tool): a scalar in it sits this deep plus its own nesting. */
export const TOOL_VALUE_DEPTH = 3;
/** The deepest legal nesting of tool.input / tool.result: a scalar inside 29 containers is at depth 32. */
export const MAX_TOOL_NESTING = MAX_DEPTH - TOOL_VALUE_DEPTH;

export { LIMIT_NUMBERS };

export type Container = "array" | "object" | "mixed";

/** `depth` containers around `leaf`: arrays, objects ({"a": …}) or alternating. */
export function nest(depth: number, leaf: JsonValue, container: Container = "array"): JsonValue {
  let value = leaf;
  for (let i = 0; i < depth; i++) {
    const asObject = container === "object" || (container === "mixed" && i % 2 === 1);
    value = asObject ? { a: value } : [value];
  }
  return value;
}

/** Containers on the deepest path of a value (0 for a scalar or an empty container's contents). */
export function nestingOf(value: JsonValue): number {
  let deepest = 0;
  const stack: [JsonValue, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [JsonValue, number];
    if (item === null || typeof item !== "object") {
      deepest = Math.max(deepest, depth);
      continue;
    }
    const children = Array.isArray(item) ? item : Object.values(item);
    deepest = Math.max(deepest, depth + 1);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A scalar or container of one JSON type, for "tool.input of every JSON type". */
const typedArb: fc.Arbitrary<Labelled<JsonValue>> = fc.oneof(
  fc.constant(labelled<JsonValue>(null, "is null")),
  fc.boolean().map((b) => labelled<JsonValue>(b, "is a boolean")),
  fc.integer({ min: -1000, max: 1000 }).map((n) => labelled<JsonValue>(n, "is a number")),
  unicodeTextArb.map((s) => labelled<JsonValue>(s, s === "" ? "is an empty string" : "is a string")),
  fc.constant(labelled<JsonValue>([], "is an empty array")),
  fc.constant(labelled<JsonValue>({}, "is an empty object")),
  fc.array(fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), unicodeTextArb), { maxLength: 4 }).map((a) => labelled<JsonValue>(a, "is an array")),
  fc
    .array(fc.tuple(unicodeTextArb, unicodeTextArb), { maxLength: 4 })
    .map((pairs) => {
      const object: { [key: string]: JsonValue } = {};
      for (const [key, item] of pairs) Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
      return labelled<JsonValue>(object, "is an object with Unicode keys");
    }),
);

const limitArb: fc.Arbitrary<Labelled<JsonValue>> = fc
  .record({ index: fc.nat({ max: LIMIT_NUMBERS.length - 1 }), wrap: fc.constantFrom("bare", "object", "array") })
  .map(({ index, wrap }) => {
    const { value, name } = LIMIT_NUMBERS[index] as { value: JsonValue; name: string };
    const wrapped: JsonValue = wrap === "bare" ? value : wrap === "object" ? { n: value } : [value, 1];
    return labelled(wrapped, `has ${name}`);
  });

const nestedArb: fc.Arbitrary<Labelled<JsonValue>> = fc
  .record({
    depth: boundaryInteger(0, MAX_TOOL_NESTING, [MAX_TOOL_NESTING, MAX_TOOL_NESTING - 1, 20]),
    container: fc.constantFrom<Container>("array", "object", "mixed"),
    leaf: fc.oneof(fc.constant<JsonValue>(1), fc.constant<JsonValue>(null), unicodeTextArb),
  })
  .map(({ depth, container, leaf }) => labelled(nest(depth, leaf, container), depth === 0 ? "is a bare scalar" : `nested ${depth} deep`));

const fakedArb: fc.Arbitrary<Labelled<JsonValue>> = fakeArb(VALUE_SCHEMAS, {}).map((value) => labelled(value));

/** A tool value: built here, or planned by size and built against the bytes the request leaves (sized.ts). */
export type ToolValue = { kind: "fixed"; value: Labelled<JsonValue> } | { kind: "sized"; plan: SizedPlan };

/**
 * tool.input / tool.result values: json-schema-faker objects, numbers at the limits, legal deep
 * nesting, one value of every JSON type, and collections and strings of every size up to the
 * message limit. `where` prefixes the label ("tool.input nested 29 deep").
 */
export function toolValueArb(where: string): fc.Arbitrary<ToolValue> {
  const fixed = fc
    .oneof(
      { weight: 3, arbitrary: fakedArb },
      { weight: 2, arbitrary: limitArb },
      { weight: 2, arbitrary: nestedArb },
      { weight: 2, arbitrary: typedArb },
    )
    .map(({ value, label }): ToolValue => ({ kind: "fixed", value: labelled(value, label === undefined ? undefined : `${where} ${label}`) }));
  const sized = sizedPlanArb.map((plan): ToolValue => ({ kind: "sized", plan }));
  // A failure elsewhere in the request shrinks this value to {} in one candidate call.
  return simplestFirst<ToolValue>({ kind: "fixed", value: labelled({}) }, fc.oneof({ weight: 9, arbitrary: fixed }, { weight: 3, arbitrary: sized }));
}

import fc from "fast-check";
import type { JsonValue } from "../../core/json/index.js";
import { bind } from "../../core/provider/requests.js";
import { EFFECT_NAMES, MAX_MESSAGE_BYTES, type JsonObject } from "../../core/provider/types.js";
import type { ProviderCase } from "../types.js";
import { boundaryInteger } from "./boundary.js";
import { hostileFromBytes, hostileFromValue, hostileId, renamed, updateAt, withTool } from "./case.js";
import { paddedRequest } from "./padding.js";
import { nest, TOOL_VALUE_DEPTH, type Container } from "./values.js";

/** Hostile cases that are one well-formed, re-bound JSON object with exactly one thing wrong. */

type Bases = fc.Arbitrary<ProviderCase>;
const MIB = MAX_MESSAGE_BYTES;

export function oversizedArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  // Sizes 1 MiB + 1..4096 (three times out of four) or 3..5 MiB, shrinking toward 1 MiB + 1 either way.
  const sizes = boundaryInteger(MIB + 1, 5 * MIB, [[MIB + 1, MIB + 4096], [MIB + 1, MIB + 4096], [MIB + 1, MIB + 4096], [3 * MIB, 5 * MIB]], 100);
  return fc
    .record({ base: bases, size: sizes })
    .map(({ base, size }) => {
      const label = size <= MIB + 4096 ? `a request of 1 MiB + ${size - MIB} bytes` : `a request of ${(size / MIB).toFixed(2)} MiB`;
      const { value, bytes } = paddedRequest(renamed(base), size);
      return hostileFromBytes("oversized-request", label, base, value, bytes, true);
    });
}

export function excessiveDepthArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc
    .record({
      base: bases,
      depth: boundaryInteger(33, 1000, [33, 34, 100, 1000]),
      container: fc.constantFrom<Container>("array", "object", "mixed"),
      inNative: fc.boolean(),
    })
    .map(({ base, depth, container, inNative }) => {
      // A scalar inside n containers of tool.input (or of a native member) is at depth 3 + n.
      const deep = nest(depth - TOOL_VALUE_DEPTH, 1, container);
      const request = inNative
        ? bind(updateAt(renamed(base), ["event", "native"], (native) => ({ ...native, deep })))
        : bind(withTool(renamed(base), (tool) => ({ ...tool, input: deep })));
      const where = inNative ? "event.native.deep" : "tool.input";
      return hostileFromValue("excessive-depth", `a value at depth ${depth} (${where} nested ${depth - TOOL_VALUE_DEPTH} deep, ${container}s)`, base, request);
    });
}

const name129 = (base: ProviderCase): string => `${hostileId(base)}${"x".repeat(129)}`.slice(0, 129);

/** One bound exceeded by one (or the first value outside it). */
const OUT_OF_BOUNDS: readonly { label: string; change: (request: JsonObject, base: ProviderCase) => JsonObject }[] = [
  { label: "a tool name of 1025 chars", change: (r) => withTool(r, (t) => ({ ...t, name: "t".repeat(1025) })) },
  { label: "a tool name of 1025 astral chars", change: (r) => withTool(r, (t) => ({ ...t, name: "\u{1F600}".repeat(1025) })) },
  { label: "a native_name of 1025 chars", change: (r) => withTool(r, (t) => ({ ...t, native_name: "n".repeat(1025) })) },
  { label: "an empty tool name", change: (r) => withTool(r, (t) => ({ ...t, name: "" })) },
  { label: "a request_id of 129 chars", change: (r, b) => ({ ...r, request_id: name129(b) }) },
  { label: "an empty request_id", change: (r) => ({ ...r, request_id: "" }) },
  { label: "a binding_id of 129 chars", change: (r) => updateAt(r, ["event", "agent"], (a) => ({ ...a, binding_id: "b".repeat(129) })) },
  { label: "a session_id of 513 chars", change: (r) => updateAt(r, ["event"], (e) => ({ ...e, session_id: "s".repeat(513) })) },
  { label: "an empty session_id", change: (r) => updateAt(r, ["event"], (e) => ({ ...e, session_id: "" })) },
  { label: "an empty call_id", change: (r) => withTool(r, (t) => ({ ...t, call_id: "" })) },
  { label: "a call_id of 513 chars", change: (r) => withTool(r, (t) => ({ ...t, call_id: "c".repeat(513) })) },
  { label: "an empty instance_id", change: (r) => updateAt(r, ["event", "agent"], (a) => ({ ...a, instance_id: "" })) },
  { label: "budget_ms 0", change: (r) => ({ ...r, budget_ms: 0 }) },
  { label: "budget_ms 9007199254740992", change: (r) => ({ ...r, budget_ms: 9007199254740992 }) },
  { label: "empty allowed_effects", change: (r) => ({ ...r, allowed_effects: [] }) },
  { label: "allowed_effects with 6 entries", change: (r) => ({ ...r, allowed_effects: [...EFFECT_NAMES, EFFECT_NAMES[0]] }) },
  { label: "allowed_effects with a duplicate", change: (r) => ({ ...r, allowed_effects: [...(r.allowed_effects as string[]), (r.allowed_effects as string[])[0] as string] }) },
];

export function outOfBoundsArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc.record({ base: bases, variant: fc.nat({ max: OUT_OF_BOUNDS.length - 1 }) }).map(({ base, variant }) => {
    const { label, change } = OUT_OF_BOUNDS[variant] as (typeof OUT_OF_BOUNDS)[number];
    return hostileFromValue("out-of-bounds", label, base, bind(change(renamed(base), base)));
  });
}

const BIG_INTEGERS: readonly { value: bigint; name: string }[] = [
  { value: 18446744073709551616n, name: "2^64" },
  { value: -9223372036854775809n, name: "-2^63-1" },
  { value: 10n ** 30n, name: "10^30" },
];

export function outOfRangeIntegerArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  return fc
    .record({ base: bases, which: fc.nat({ max: BIG_INTEGERS.length - 1 }), wrap: fc.constantFrom("bare", "object", "array") })
    .map(({ base, which, wrap }) => {
      const { value, name } = BIG_INTEGERS[which] as (typeof BIG_INTEGERS)[number];
      const input: JsonValue = wrap === "bare" ? value : wrap === "object" ? { count: value } : [1, value];
      return hostileFromValue("out-of-range-integer", `the integer ${name} in tool.input (${wrap})`, base, bind(withTool(renamed(base), (t) => ({ ...t, input }))));
    });
}

const FIELD_PLACES: readonly (readonly string[])[] = [[], ["event"], ["event", "agent"], ["event", "tool"], ["event", "tool", "result_projection"]];

/** An extra field in an envelope object; `projected` bases (with a result_projection) put it there. */
export function unknownFieldArb(bases: Bases, projected: Bases | undefined): fc.Arbitrary<ProviderCase> {
  const field = { name: fc.constantFrom("x_awp_fuzz", "capitalised", "", "extra field"), extra: fc.constantFrom<JsonValue>(true, null, {}) };
  const outer = fc.record({ base: bases, place: fc.nat({ max: FIELD_PLACES.length - 2 }), ...field });
  const inner = projected === undefined ? outer : fc.record({ base: projected, place: fc.constant(FIELD_PLACES.length - 1), ...field });
  return fc.oneof({ weight: 4, arbitrary: outer }, { weight: 1, arbitrary: inner }).map(({ base, place, name, extra }) => {
    const path = FIELD_PLACES[place] as readonly string[];
    const changed = updateAt(renamed(base), path, (object) => {
      const first = Object.keys(object)[0] ?? "field";
      const key = name === "capitalised" ? first[0]!.toUpperCase() + first.slice(1) : name;
      return { ...object, [key]: extra };
    });
    const where = path.length === 0 ? "the top level" : path.join(".");
    return hostileFromValue("unknown-field", `an unknown ${name === "capitalised" ? "capitalised copy of a" : JSON.stringify(name)} field at ${where}`, base, bind(changed));
  });
}

export function wrongApiVersionArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  const versions = ["aw-provider/v1alpha2", "aw-provider/v1", "aw-provider/v1alpha1 ", "AW-PROVIDER/V1ALPHA1", "", "aw-provider/v1beta1", "aw-provider/v0"];
  return fc.record({ base: bases, version: fc.constantFrom(...versions) }).map(({ base, version }) =>
    hostileFromValue("wrong-api-version", `api_version ${JSON.stringify(version)}`, base, bind({ ...renamed(base), api_version: version })),
  );
}

export function unknownMethodArb(bases: Bases): fc.Arbitrary<ProviderCase> {
  const methods = ["explain", "Invoke", "INVOKE", "invoke ", "", "invoke_v2", "validate-config", "describe_all"];
  return fc.record({ base: bases, method: fc.constantFrom(...methods) }).map(({ base, method }) =>
    hostileFromValue("unknown-method", `method ${JSON.stringify(method)}`, base, bind({ ...renamed(base), method })),
  );
}

/** `before` must be an arbitrary of tool.before cases. */
export function resultBeforeToolArb(before: Bases): fc.Arbitrary<ProviderCase> {
  const results: JsonValue[] = [{ stdout: "already ran" }, "", 0, false, [], {}, "ok"];
  return fc.record({ base: before, result: fc.nat({ max: results.length - 1 }) }).map(({ base, result }) => {
    const value = results[result] as JsonValue;
    return hostileFromValue("result-before-tool", `a tool.before event with result ${JSON.stringify(value)}`, base, bind(withTool(renamed(base), (t) => ({ ...t, result: value }))));
  });
}

import { describe, expect, it } from "vitest";
import { parseJson, wireJson, type JsonValue } from "../../../src/core/json/index.js";
import { computeInputDigest } from "../../../src/core/provider/digest.js";
import { hostileRequests, type HostileRequest } from "../../../src/core/provider/hostile.js";
import { invokeRequest, validateConfigRequest } from "../../../src/core/provider/requests.js";
import type { HostileKind, JsonObject } from "../../../src/core/provider/types.js";
import { kitSchema } from "../../../src/core/schema.js";

const tool = { name: "t", nativeName: "t", input: { a: 1 }, result: { out: "x" }, projectionText: "x" };
const base = (event: "tool.before" | "tool.after"): JsonObject =>
  invokeRequest({ requestId: "base", operation: "check", configRevision: "a".repeat(64), budgetMs: 500, allowedEffects: ["observe"], config: { k: ["v"] }, event, tool, callId: "c1", withProjection: false });

const probes = hostileRequests({ validate: validateConfigRequest("v", { k: ["v"] }), invoke: base("tool.after"), invokeBefore: base("tool.before") });
const schema = kitSchema("provider/request.schema.json");
const encoder = new TextEncoder();
const issues = (bytes: Uint8Array): string[] => parseJson(bytes).issues.map((i) => i.kind);
const digestMatches = (p: HostileRequest): boolean => {
  const value = parseJson(p.bytes, { numbers: "lossless" }).value as JsonObject;
  return value.input_digest === computeInputDigest(p.bytes);
};

/** What makes each kind of probe hostile, judged with the kit's own reader and schema. */
const DEFECT: Record<HostileKind, (p: HostileRequest) => boolean> = {
  "duplicate-keys": (p) => issues(p.bytes).includes("duplicate-key"),
  "trailing-document": (p) => issues(p.bytes).includes("trailing-data"),
  "malformed-json": (p) => p.bytes.length === 0 || issues(p.bytes).some((i) => ["bom", "invalid-utf8", "syntax", "empty"].includes(i)),
  "out-of-bounds": (p) => issues(p.bytes).length === 0 && !schema(p.value) && digestMatches(p),
  "oversized-request": (p) => issues(p.bytes).includes("size") && digestMatches(p),
  "excessive-depth": (p) => issues(p.bytes).includes("depth") && digestMatches(p),
  "out-of-range-integer": (p) => issues(p.bytes).includes("integer-range") && digestMatches(p),
  "unknown-field": (p) => issues(p.bytes).length === 0 && !schema(p.value) && digestMatches(p),
  "wrong-api-version": (p) => issues(p.bytes).length === 0 && !schema(p.value),
  "unknown-method": (p) => issues(p.bytes).length === 0 && !schema(p.value),
  "malformed-digest": (p) => issues(p.bytes).length === 0 && !schema(p.value),
  "mismatched-digest": (p) => issues(p.bytes).length === 0 && schema(p.value) && !digestMatches(p),
  "result-before-tool": (p) => issues(p.bytes).length === 0 && !schema(p.value) && digestMatches(p),
  "bad-config": (p) => issues(p.bytes).length === 0 && !schema(p.value),
  "malformed-config-revision": (p) => issues(p.bytes).length === 0 && !schema(p.value) && digestMatches(p),
  "bad-request-id": (p) => issues(p.bytes).length === 0 && !schema(p.value),
  "bad-allowed-effects": (p) => issues(p.bytes).length === 0 && !schema(p.value) && digestMatches(p),
  "bad-event-name": (p) => issues(p.bytes).length === 0 && !schema(p.value) && digestMatches(p),
  // Valid by the schema: only admission knows the operation is not declared.
  "undeclared-operation": (p) => issues(p.bytes).length === 0 && schema(p.value) && digestMatches(p) && p.value?.operation !== "check",
};

const isObject = (v: JsonValue | undefined): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

interface Difference {
  path: string;
  control: JsonValue | undefined;
  probe: JsonValue | undefined;
  /** The container holding the value in the control ("object" or "array"). */
  parent: "object" | "array" | "none";
}

/** Where two parsed values differ: a differing value, or a member on one side only. */
function differences(a: JsonValue | undefined, b: JsonValue | undefined, ignore: readonly string[], path = "", parent: Difference["parent"] = "none"): Difference[] {
  if (ignore.includes(path)) return [];
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((item, i) => differences(item, b[i], ignore, `${path}/${i}`, "array"));
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => differences(a[k], b[k], ignore, `${path}/${k}`, "object"));
  }
  return Object.is(a, b) || (typeof a === "bigint" && a === b) ? [] : [{ path, control: a, probe: b, parent }];
}

const scalarType = (v: JsonValue | undefined): string => (v === null ? "null" : typeof v === "bigint" ? "number" : typeof v);

/**
 * One property: a member added or removed, a scalar replaced by another of the same type, a null
 * replaced by a value (tool.result before the tool), or the value wrapped in one more container
 * of the kind that holds it (one more level of the same shape).
 */
function isOneProperty(d: Difference): boolean {
  if (d.control === undefined || d.probe === undefined || d.control === null) return true;
  const scalar = (v: JsonValue): boolean => v === null || typeof v !== "object";
  if (scalar(d.control) && scalar(d.probe)) return scalarType(d.control) === scalarType(d.probe);
  if (d.parent === "object" && isObject(d.probe)) {
    const keys = Object.keys(d.probe);
    return keys.length === 1 && differences(d.control, d.probe[keys[0]!], []).length === 0;
  }
  if (d.parent === "array" && Array.isArray(d.probe)) return d.probe.length === 1 && differences(d.control, d.probe[0], []).length === 0;
  // An object member wrapped in an array (config [ {...} ]).
  if (d.parent === "object" && Array.isArray(d.probe) && !Array.isArray(d.control)) return d.probe.length === 1 && differences(d.control, d.probe[0], []).length === 0;
  // One item appended to or removed from the end of an array (allowed_effects).
  if (Array.isArray(d.control) && Array.isArray(d.probe) && Math.abs(d.control.length - d.probe.length) === 1) {
    const [short, long] = d.control.length < d.probe.length ? [d.control, d.probe] : [d.probe, d.control];
    return differences(short, long.slice(0, short.length), []).length === 0;
  }
  return false;
}

/** The single contiguous edit turning `control` into `probe`: [removed, added] byte counts. */
function edit(control: Uint8Array, probe: Uint8Array): [number, number] {
  let prefix = 0;
  while (prefix < control.length && prefix < probe.length && control[prefix] === probe[prefix]) prefix++;
  let suffix = 0;
  while (suffix < control.length - prefix && suffix < probe.length - prefix && control[control.length - 1 - suffix] === probe[probe.length - 1 - suffix]) suffix++;
  return [control.length - prefix - suffix, probe.length - prefix - suffix];
}

const DIGEST_KINDS: HostileKind[] = ["malformed-digest", "mismatched-digest"];

describe("hostile provider requests", () => {
  it("covers every kind, from the bases it was given", () => {
    expect(new Set(probes.map((p) => p.kind))).toEqual(new Set(Object.keys(DEFECT)));
    expect(hostileRequests({}).map((p) => p.kind)).toEqual(["unknown-method", "bad-request-id", "bad-request-id"]);
  });

  for (const probe of probes) {
    it(`${probe.kind}: ${probe.label} has exactly its defect`, () => {
      expect(DEFECT[probe.kind](probe)).toBe(true);
      expect(probe.requestId).toMatch(/^hostile-/);
      if (probe.kind === "bad-request-id") expect(probe.requestId).not.toMatch(/^[!-~]{1,128}$/);
    });
  }

  describe("every probe differs from its control in exactly one property", () => {
    for (const probe of probes) {
      it(`${probe.kind}: ${probe.label} vs ${probe.control.label}`, () => {
        const control = probe.control.value;
        // The control is a well-formed request the kit would send, and bound correctly.
        expect(schema(control)).toBe(true);
        const controlBytes = encoder.encode(wireJson(control));
        expect(issues(controlBytes)).toEqual([]);
        if (control.method === "invoke") expect(control.input_digest).toBe(computeInputDigest(controlBytes));
        // A bad request_id is the one defect; its control is the same describe under a well-formed id.
        if (probe.kind === "bad-request-id") {
          const { request_id: _c, ...controlRest } = control;
          const { request_id: _p, ...probeRest } = probe.value!;
          expect(probeRest).toEqual(controlRest);
          return;
        }
        expect(control.request_id).toBe(probe.requestId);
        if (probe.value !== undefined) {
          // One value differs; request_id and input_digest do not count (the digest follows the content).
          const ignore = DIGEST_KINDS.includes(probe.kind) ? [] : ["/input_digest"];
          const probeValue = parseJson(probe.bytes, { numbers: "lossless" }).value;
          const found = differences(parseJson(controlBytes, { numbers: "lossless" }).value, probeValue, ["/request_id", ...ignore]);
          expect(found.map((d) => d.path)).toHaveLength(1);
          expect(isOneProperty(found[0]!)).toBe(true);
        } else {
          // The bytes are the control's with one defect: an insertion, a deletion, or one byte replaced.
          const [removed, added] = edit(controlBytes, probe.bytes);
          expect(removed === 0 || added === 0 || (removed === 1 && added === 1)).toBe(true);
          expect(removed + added).toBeGreaterThan(0);
        }
      });
    }
  });

  it("the rule catches the old depth probe: an array input 34 deep against an object input", () => {
    const control = base("tool.after");
    let deep: JsonValue = 1;
    for (let i = 0; i < 33; i++) deep = [deep];
    const probe = { ...control, event: { ...(control.event as JsonObject), tool: { ...((control.event as JsonObject).tool as JsonObject), input: deep } } };
    const found = differences(control, probe, ["/request_id", "/input_digest"]);
    expect(found).toHaveLength(1);
    expect(isOneProperty(found[0]!)).toBe(false);
  });

  it("puts the limits between control and probe: 32 levels vs 33, u64 max vs 2^64, 1024 vs 1025 characters; budget_ms 0 against the kit's budget", () => {
    const depthOf = (v: JsonValue | undefined): number => (Array.isArray(v) ? 1 + Math.max(0, ...v.map(depthOf)) : isObject(v) ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    const deep = probes.find((p) => p.kind === "excessive-depth")!;
    expect(depthOf(deep.control.value)).toBe(32);
    expect(depthOf(deep.value)).toBe(33);
    // Objects all the way down, as tool.input is in the control: a Provider that refuses a non-object input cannot tell them apart.
    expect(JSON.stringify(wireJson(deep.value!))).not.toContain("[[");
    const big = probes.find((p) => p.kind === "out-of-range-integer")!;
    expect(wireJson(big.control.value)).toContain('"count":18446744073709551615}');
    expect(wireJson(big.value!)).toContain('"count":18446744073709551616}');
    const name = probes.find((p) => p.label === "a tool name of 1025 characters")!;
    expect(((name.control.value.event as JsonObject).tool as JsonObject).name).toHaveLength(1024);
    // Not budget_ms 1: a Provider that honours its budget rightly refuses that (provider/transport/tight-budget), and a refused control judges nothing.
    const zero = probes.find((p) => p.label === "budget_ms 0")!;
    expect([zero.control.label, zero.control.value.budget_ms, zero.value?.budget_ms]).toEqual(["the same invocation without the defect", 500, 0]);
  });

  it("sends oversized requests 1 KiB over the 1 MiB limit, with a control 1 KiB under it", () => {
    const oversized = probes.find((p) => p.kind === "oversized-request")!;
    expect(oversized.bytes.length).toBe(1_048_576 + 1024);
    expect(encoder.encode(wireJson(oversized.control.value)).length).toBe(1_048_576 - 1024);
  });

  it("binds invocations in the dialect it is given", () => {
    const floats = invokeRequest({ requestId: "f", operation: "check", configRevision: "a".repeat(64), budgetMs: 500, allowedEffects: ["observe"], config: { limit: 1e21 }, event: "tool.before", tool, callId: "c1", withProjection: false });
    const zmij = hostileRequests({ invoke: floats }, "hostile", "zmij").find((p) => p.label === "an unknown top-level field")!;
    const { x_awp_conformance: _x, ...rest } = zmij.value!;
    expect(zmij.value!.input_digest).toBe(computeInputDigest({ ...zmij.value!, input_digest: "" } as JsonValue, "zmij"));
    expect(zmij.control.value.input_digest).toBe(computeInputDigest(rest as JsonValue, "zmij"));
    expect(zmij.value!.input_digest).not.toBe(computeInputDigest(zmij.value!, "ryu"));
  });
});

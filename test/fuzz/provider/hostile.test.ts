import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, wireJson } from "../../../src/core/json/index.js";
import { computeInputDigest } from "../../../src/core/provider/digest.js";
import { bind } from "../../../src/core/provider/requests.js";
import { MAX_MESSAGE_BYTES, type HostileKind, type JsonObject } from "../../../src/core/provider/types.js";
import { hostileCaseArb, hostileKinds } from "../../../src/fuzz/provider/index.js";
import type { ProviderCase } from "../../../src/fuzz/types.js";
import { ctx, digestMatches, event, isValidCase, issues, schema, text, tool } from "./fixtures.js";

const cases = fc.sample(hostileCaseArb(ctx), { seed: 12, numRuns: 300 });
const kindOf = (c: ProviderCase): HostileKind => c.purpose.slice("hostile:".length) as HostileKind;
const only = (c: ProviderCase, kind: string): boolean => issues(c).length > 0 && issues(c).every((i) => i === kind);
const clean = (c: ProviderCase): boolean => issues(c).length === 0;
const MIB = MAX_MESSAGE_BYTES;
const KNOWN_TOP = { api_version: 1, request_id: 1, method: 1, operation: 1, config_revision: 1, budget_ms: 1, allowed_effects: 1, input_digest: 1, config: 1, event: 1 };

/** What makes each kind hostile, judged with the kit's reader and schema (as in test/core/provider/hostile.test.ts). */
const DEFECT: Record<HostileKind, (c: ProviderCase) => boolean> = {
  "duplicate-keys": (c) => only(c, "duplicate-key"),
  "trailing-document": (c) => only(c, "trailing-data"),
  "malformed-json": (c) => c.bytes.length === 0 || issues(c).some((i) => ["bom", "invalid-utf8", "syntax", "empty", "lone-surrogate"].includes(i)),
  "out-of-bounds": (c) => clean(c) && !schema(c.value) && digestMatches(c),
  "oversized-request": (c) => only(c, "size") && digestMatches(c),
  "excessive-depth": (c) => only(c, "depth") && digestMatches(c),
  "out-of-range-integer": (c) => only(c, "integer-range") && digestMatches(c),
  "unknown-field": (c) => clean(c) && !schema(c.value) && digestMatches(c),
  "wrong-api-version": (c) => clean(c) && !schema(c.value) && digestMatches(c),
  "unknown-method": (c) => clean(c) && !schema(c.value) && digestMatches(c),
  "malformed-digest": (c) => clean(c) && !schema(c.value),
  "mismatched-digest": (c) => clean(c) && schema(c.value) && !digestMatches(c),
  "result-before-tool": (c) => clean(c) && !schema(c.value) && digestMatches(c) && event(c).name === "tool.before" && tool(c).result !== null,
  "bad-config": (c) => clean(c) && !schema(c.value) && digestMatches(c) && (value(c).config === undefined || !isObjectValue(value(c).config)),
  "malformed-config-revision": (c) => clean(c) && !schema(c.value) && digestMatches(c) && !/^[0-9a-f]{64}$/.test(String(value(c).config_revision)),
  "bad-request-id": (c) => clean(c) && !schema(c.value) && digestMatches(c) && !/^[!-~]{1,128}$/.test(c.requestId),
  "bad-allowed-effects": (c) => clean(c) && !schema(c.value) && digestMatches(c),
  "bad-event-name": (c) => clean(c) && !schema(c.value) && digestMatches(c) && !["tool.before", "tool.after"].includes(String(event(c).name)),
  // Valid by the schema: only admission knows the operation is not declared.
  "undeclared-operation": (c) => clean(c) && schema(c.value) && digestMatches(c) && !ctx.operations.some((op) => op.name === c.value?.operation),
};
const value = (c: ProviderCase): JsonObject => c.value as JsonObject;
const isObjectValue = (v: unknown): boolean => v !== null && typeof v === "object" && !Array.isArray(v);

describe("hostile provider cases", () => {
  it("cover every kind", () => {
    expect(new Set(cases.map(kindOf))).toEqual(new Set(Object.keys(DEFECT)));
    expect(new Set(hostileKinds(ctx))).toEqual(new Set(Object.keys(DEFECT)));
    const labels = cases.map((c) => c.label);
    for (const part of ["at the top level", "at event.agent", "at event.tool.result_projection", "top-level key", "event.tool key", " as \"", "cut off", "inside", "byte order mark", "empty stdin", "lone surrogate", "depth 33 ", "1 MiB + "]) {
      expect(labels.some((l) => l.includes(part)), part).toBe(true);
    }
  });

  it("each show their defect, derived from a valid base", () => {
    for (const c of cases) {
      expect(c.kind).toBe("hostile");
      expect(DEFECT[kindOf(c)](c), `${c.purpose}: ${c.label}`).toBe(true);
      expect(c.base && isValidCase(c.base), c.label).toBe(true);
      expect(c.budgetMs).toBe(c.base?.budgetMs);
      if (c.value !== undefined && c.bytes.length < 100_000) expect(text(c)).toBe(wireJson(c.value));
    }
  });

  it("keep the rest of the request intact", () => {
    for (const c of cases.filter((x) => ["duplicate-keys", "trailing-document"].includes(kindOf(x)))) {
      // The first document means the same as the re-bound base: only the syntax is wrong.
      const first = parseJson(c.bytes, { numbers: "lossless" }).value as JsonObject;
      expect(first.request_id).toBe(c.requestId);
      expect(first.input_digest).toBe(computeInputDigest(wireJson(first)));
      expect(schema(parseJson(c.bytes).value)).toBe(true);
    }
    for (const c of cases.filter((x) => kindOf(x) === "unknown-field")) {
      // Exactly one field is unknown; without it (re-bound) the request is valid again.
      let unknown = 0;
      const strip = (object: JsonObject, known: string[]): JsonObject => {
        const kept = Object.fromEntries(Object.entries(object).filter(([k]) => known.includes(k)));
        unknown += Object.keys(object).length - Object.keys(kept).length;
        return kept;
      };
      const { event: e, ...top } = strip(c.value as JsonObject, Object.keys(KNOWN_TOP));
      const { agent, tool: t, ...rest } = strip(e as JsonObject, ["name", "agent", "session_id", "tool", "native"]);
      const { result_projection: projection, ...toolRest } = strip(t as JsonObject, ["name", "native_name", "call_id", "input", "result", "result_projection"]);
      const fixedTool = projection === undefined ? toolRest : { ...toolRest, result_projection: strip(projection as JsonObject, ["text", "status", "content_origin", "command"]) };
      const fixed = bind({ ...top, event: { ...rest, agent: strip(agent as JsonObject, ["adapter", "binding_id", "instance_id"]), tool: fixedTool } });
      expect(unknown, c.label).toBe(1);
      expect(schema(fixed), c.label).toBe(true);
    }
  });

  it("send oversized requests just over 1 MiB or 3-5 MiB, bound and exact in size", () => {
    const sizes = cases.filter((c) => kindOf(c) === "oversized-request").map((c) => c.bytes.length);
    expect(sizes.some((n) => n > MIB && n <= MIB + 4096)).toBe(true);
    expect(sizes.every((n) => (n > MIB && n <= MIB + 4096) || (n >= 3 * MIB && n <= 5 * MIB))).toBe(true);
    const big = cases.find((c) => kindOf(c) === "oversized-request") as ProviderCase;
    expect(text(big)).toBe(wireJson(big.value as JsonObject));
    expect(big.label).toMatch(/MiB/);
  });

  it("nest exactly one level too deep at the smallest depth", () => {
    const deep = cases.filter((c) => kindOf(c) === "excessive-depth");
    const byDepth = (d: number): ProviderCase[] => deep.filter((c) => c.label.startsWith(`a value at depth ${d} `));
    expect(byDepth(33).length).toBeGreaterThan(0);
    expect(parseJson(byDepth(33)[0]!.bytes, { maxDepth: 33 }).ok).toBe(true);
  });

  it("shrink their parameters: an oversized request shrinks to 1 MiB + 1 byte", () => {
    const property = fc.property(hostileCaseArb(ctx), (c) => kindOf(c) !== "oversized-request");
    const result = fc.check(property, { seed: 5 });
    expect(result.failed).toBe(true);
    expect(result.counterexample![0].bytes.length).toBe(MIB + 1);
  });

  it("shrink an excessive depth to exactly 33", () => {
    const result = fc.check(fc.property(hostileCaseArb(ctx), (c) => kindOf(c) !== "excessive-depth"), { seed: 5 });
    expect(result.counterexample![0].label).toMatch(/^a value at depth 33 /);
  });

  it("leave result-before-tool out when no operation sees tool.before", () => {
    const afterOnly = { ...ctx, operations: [ctx.operations[1]!] };
    expect(hostileKinds(afterOnly)).not.toContain("result-before-tool");
    expect(fc.sample(hostileCaseArb(afterOnly), { seed: 3, numRuns: 100 }).every((c) => c.purpose !== "hostile:result-before-tool")).toBe(true);
  });
});

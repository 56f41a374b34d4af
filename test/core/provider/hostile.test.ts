import { describe, expect, it } from "vitest";
import { parseJson, type JsonValue } from "../../../src/core/json/index.js";
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
const issues = (p: HostileRequest): string[] => parseJson(p.bytes).issues.map((i) => i.kind);
const digestMatches = (p: HostileRequest): boolean => {
  const value = parseJson(p.bytes, { numbers: "lossless" }).value as JsonObject;
  return value.input_digest === computeInputDigest(p.bytes);
};

/** What makes each kind of probe hostile, judged with the kit's own reader and schema. */
const DEFECT: Record<HostileKind, (p: HostileRequest) => boolean> = {
  "duplicate-keys": (p) => issues(p).includes("duplicate-key"),
  "trailing-document": (p) => issues(p).includes("trailing-data"),
  "malformed-json": (p) => p.bytes.length === 0 || issues(p).some((i) => ["bom", "invalid-utf8", "syntax", "empty"].includes(i)),
  "out-of-bounds": (p) => issues(p).length === 0 && !schema(p.value) && digestMatches(p),
  "oversized-request": (p) => issues(p).includes("size") && digestMatches(p),
  "excessive-depth": (p) => issues(p).includes("depth") && digestMatches(p),
  "out-of-range-integer": (p) => issues(p).includes("integer-range") && digestMatches(p),
  "unknown-field": (p) => issues(p).length === 0 && !schema(p.value) && digestMatches(p),
  "wrong-api-version": (p) => issues(p).length === 0 && !schema(p.value),
  "unknown-method": (p) => issues(p).length === 0 && !schema(p.value),
  "malformed-digest": (p) => issues(p).length === 0 && !schema(p.value),
  "mismatched-digest": (p) => issues(p).length === 0 && schema(p.value) && !digestMatches(p),
  "result-before-tool": (p) => issues(p).length === 0 && !schema(p.value) && digestMatches(p),
};

describe("hostile provider requests", () => {
  it("covers every kind, from the bases it was given", () => {
    expect(new Set(probes.map((p) => p.kind))).toEqual(new Set(Object.keys(DEFECT)));
    expect(hostileRequests({}).map((p) => p.kind)).toEqual(["unknown-method"]);
  });

  for (const probe of probes) {
    it(`${probe.kind}: ${probe.label} has exactly its defect`, () => {
      expect(DEFECT[probe.kind](probe)).toBe(true);
      expect(probe.requestId).toMatch(/^hostile-/);
    });
  }

  it("keeps everything but the defect well-formed: removing it gives a valid request", () => {
    const unknown = probes.find((p) => p.label === "an unknown top-level field")?.value as JsonObject;
    const { x_awp_conformance: _extra, input_digest: _digest, ...rest } = unknown;
    expect(schema({ ...rest, input_digest: computeInputDigest(rest as JsonValue) })).toBe(true);
  });

  it("sends oversized requests just over the 1 MiB limit, not absurdly over", () => {
    const size = probes.find((p) => p.kind === "oversized-request")?.bytes.length ?? 0;
    expect(size).toBeGreaterThan(1_048_576);
    expect(size).toBeLessThan(1_048_576 + 128 * 1024);
  });
});

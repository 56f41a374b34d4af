/** Size-driven provider values: every bucket up to the 1 MiB limit, exact texts, and shrinking to the threshold. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, wireJson, type JsonValue } from "../../../src/core/json/index.js";
import { computeInputDigest } from "../../../src/core/provider/digest.js";
import { MAX_MESSAGE_BYTES, type JsonObject } from "../../../src/core/provider/types.js";
import { COUNT_SCALE, bucketOf } from "../../../src/fuzz/coverage.js";
import { extremes, PROVIDER_SIZES, ProviderCoverage } from "../../../src/fuzz/provider/coverage.js";
import { hostileKinds, providerCaseArb, validCaseArb } from "../../../src/fuzz/provider/index.js";
import { bytesOf, type Text } from "../../../src/fuzz/provider/sized-bytes.js";
import { buildSized, canonicalOf, padding, sizedPlanArb, type SizedPlan } from "../../../src/fuzz/provider/sized.js";
import { spliceRequest } from "../../../src/fuzz/provider/splice.js";
import type { ProviderCase } from "../../../src/fuzz/types.js";
import { ctx, isValidCase, tool } from "./fixtures.js";

const cases = fc.sample(validCaseArb(ctx), { seed: 21, numRuns: 300 });
const sizesOf = (c: ProviderCase): { members: number; chars: number } => extremes([tool(c).input as JsonValue, tool(c).result as JsonValue]);

describe("size-planned tool values", () => {
  it("write their own wire and canonical texts, within the bytes they are given", () => {
    fc.assert(
      fc.property(sizedPlanArb, fc.integer({ min: 2, max: 300_000 }), (plan, max) => {
        const built = buildSized(plan, max);
        const text = (written: Text): string => Buffer.from(bytesOf(written)).toString("utf8");
        expect(text(built.wire)).toBe(wireJson(built.value));
        expect(built.bytes).toBe(built.wire.length);
        expect(built.bytes).toBeLessThanOrEqual(Math.max(max, 2));
        expect(text(built.canon)).toBe(canonicalOf(built.value));
        const v = built.value;
        expect(typeof v === "string" ? [...v].length : Array.isArray(v) ? v.length : Object.keys(v as JsonObject).length).toBe(built.count);
        expect(built.count).toBeLessThanOrEqual(plan.count);
      }),
      { seed: 4, numRuns: 150 },
    );
  });

  it("make valid requests of every size up to exactly 1 MiB, never over, never deeper than 32", () => {
    for (const c of cases) {
      expect(isValidCase(c), c.label).toBe(true);
      expect(c.bytes.length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
      expect(parseJson(c.bytes).ok).toBe(true);
    }
    const exact = cases.filter((c) => c.bytes.length === MAX_MESSAGE_BYTES);
    expect(exact.length).toBeGreaterThan(0);
    expect(exact[0]?.label).toContain(`a request of exactly ${MAX_MESSAGE_BYTES} bytes`);
    expect(cases.some((c) => c.bytes.length >= MAX_MESSAGE_BYTES - 4096 && c.bytes.length < MAX_MESSAGE_BYTES)).toBe(true);
  });

  it("reach every count bucket, from empty to tens of thousands of members and characters", () => {
    const memberBuckets = new Set(cases.map((c) => bucketOf(COUNT_SCALE, sizesOf(c).members)));
    const charBuckets = new Set(cases.map((c) => bucketOf(COUNT_SCALE, sizesOf(c).chars)));
    // 0, 1, 2-9, 10-99, 100-999, 1000-9999, 10000-99999 (the last, 100000 and more, only fits short members).
    for (let b = 0; b <= 6; b++) {
      expect(memberBuckets, `members bucket ${COUNT_SCALE[b]?.name}`).toContain(b);
      expect(charBuckets, `characters bucket ${COUNT_SCALE[b]?.name}`).toContain(b);
    }
    const objects = cases.map((c) => tool(c).input).filter((v): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v));
    expect(objects.some((o) => Object.keys(o).length > 1000)).toBe(true);
    expect(cases.some((c) => /tool\.input (object|array) of \d+ members/.test(c.label))).toBe(true);
  });

  it("bind the spliced requests exactly as the kit's digest does", () => {
    for (const c of cases.filter((x) => x.bytes.length > 100_000).slice(0, 5)) expect((c.value as JsonObject).input_digest).toBe(computeInputDigest(c.bytes));
  });

  it("splice values whose canonical text differs from their wire text, two of them and a padding in one request", () => {
    const plan = (shape: SizedPlan["shape"], members: JsonValue[], count: number): SizedPlan => ({ shape, members, count, stem: "s", alphabet: ["a", "\u2028"] });
    // 1e21 is written 1e+21 and read back 1e21; -0 is written 0 and canonical -0.0 (the digest's dialect).
    const input = buildSized(plan("array", [1e21, -0, "x"], 60_000), 400_000);
    const result = buildSized(plan("object", [-0, { k: 1e21 }], 20_000), 400_000);
    expect(input.canon).not.toBe(input.wire);
    expect(result.canon).not.toBe(result.wire);
    const around = (cases.find((c) => tool(c).result !== undefined) as ProviderCase).value as JsonObject;
    const make = (values: Record<string, JsonValue>): JsonObject => {
      const { input_digest: _d, ...unbound } = around;
      const event = unbound.event as JsonObject;
      return { ...unbound, event: { ...event, native: { padding: values.padding ?? null }, tool: { ...(event.tool as JsonObject), input: values.input ?? null, result: values.result ?? null } } };
    };
    const spliced = spliceRequest(make, { input, result, padding: padding(12_345) });
    expect(spliced.digest).toBe(computeInputDigest(spliced.bytes));
    const read = parseJson(spliced.bytes);
    expect(read.ok).toBe(true);
    expect(Buffer.from(spliced.bytes).toString("utf8")).toBe(wireJson({ ...make({ input: input.value, result: result.value, padding: "x".repeat(12_345) }), input_digest: spliced.digest }));
  });
});

describe("shrinking a size failure", () => {
  it("a tool.input object of more than 50 members shrinks to exactly 51, its members to 0", () => {
    const wide = (c: ProviderCase): boolean => {
      const input = tool(c).input;
      return input !== null && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length > 50;
    };
    let calls = 0;
    const result = fc.check(fc.property(validCaseArb(ctx), (c) => (calls++, !wide(c))), { seed: 3 });
    expect(result.failed).toBe(true);
    const input = tool(result.counterexample![0]).input as JsonObject;
    expect(Object.keys(input)).toHaveLength(51);
    expect(new Set(Object.values(input).map((v) => wireJson(v)))).toEqual(new Set(["0"]));
    expect(result.counterexample![0].label).toContain("tool.input object of 51 members");
    // A binary search on the count, not a walk over members: a few dozen candidate calls in all.
    expect(calls).toBeLessThan(120);
  });

  it("a string over 1000 characters in tool.result shrinks to exactly 1001", () => {
    const long = (c: ProviderCase): boolean => typeof tool(c).result === "string" && [...(tool(c).result as string)].length > 1000;
    const result = fc.check(fc.property(validCaseArb(ctx), (c) => !long(c)), { seed: 5, numRuns: 1000 });
    expect([...(tool(result.counterexample![0]).result as string)]).toHaveLength(1001);
  });
});

describe("provider coverage", () => {
  it("counts every case once per kind and once per bucket of each size", () => {
    const sample = fc.sample(providerCaseArb(ctx), { seed: 2, numRuns: 120 });
    const coverage = new ProviderCoverage(hostileKinds(ctx));
    for (const c of sample) coverage.add(c);
    const { kinds, sizes } = coverage.summary();
    expect(kinds.map((k) => k.name)).toEqual(["valid", ...hostileKinds(ctx).map((k) => `hostile:${k}`)]);
    expect(kinds.reduce((n, k) => n + k.count, 0)).toBe(120);
    expect(kinds.find((k) => k.name === "valid")?.count).toBe(sample.filter((c) => c.kind === "valid").length);
    for (const size of sizes) expect(size.buckets.reduce((n, b) => n + b.count, 0), size.name).toBe(size.name === PROVIDER_SIZES.bytes ? 120 : sample.filter((c) => (c.value ?? c.base?.value) !== undefined).length);
    const bytes = sizes.find((s) => s.name === PROVIDER_SIZES.bytes)?.buckets ?? [];
    expect(bytes.find((b) => b.name === "over 1 MiB")?.count).toBe(sample.filter((c) => c.bytes.length > MAX_MESSAGE_BYTES).length);
  });

  it("measures strings in code points: a pair is one, a lone surrogate is one, plain text is its length", () => {
    const longest = (text: string): number => extremes([{ a: text }]).chars;
    expect(longest("abc")).toBe(3);
    expect(longest("a\u{1F600}b")).toBe(3);
    expect(longest("\ud83dx\ude00")).toBe(3);
    expect(longest("\u{1F600}".repeat(1000))).toBe(1000);
    expect(longest("\ud83d")).toBe(1);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { providerCaseArb } from "../../../src/fuzz/provider/index.js";
import { ctx, text } from "./fixtures.js";

describe("the provider case mix", () => {
  it("is deterministic by seed: the same seed gives byte-identical cases", () => {
    const first = fc.sample(providerCaseArb(ctx), { seed: 42, numRuns: 200 });
    const second = fc.sample(providerCaseArb(ctx), { seed: 42, numRuns: 200 });
    expect(second.map((c) => Buffer.from(c.bytes).toString("base64"))).toEqual(first.map((c) => Buffer.from(c.bytes).toString("base64")));
    expect(second.map((c) => [c.label, c.purpose, c.requestId, c.base ? text(c.base) : ""])).toEqual(first.map((c) => [c.label, c.purpose, c.requestId, c.base ? text(c.base) : ""]));
    const other = fc.sample(providerCaseArb(ctx), { seed: 43, numRuns: 200 });
    expect(other.map(text)).not.toEqual(first.map(text));
  });

  it("is about 60% valid and 40% hostile, with every hostile kind", () => {
    const cases = fc.sample(providerCaseArb(ctx), { seed: 9, numRuns: 300 });
    const valid = cases.filter((c) => c.kind === "valid").length / cases.length;
    expect(valid).toBeGreaterThan(0.5);
    expect(valid).toBeLessThan(0.7);
    expect(new Set(cases.map((c) => c.purpose)).size).toBe(20);
  });

  it("generates cases quickly", () => {
    fc.sample(providerCaseArb(ctx), { seed: 1, numRuns: 50 });
    const started = performance.now();
    fc.sample(providerCaseArb(ctx), { seed: 2, numRuns: 300 });
    const perCase = (performance.now() - started) / 300;
    console.log(`provider case generation: ${perCase.toFixed(2)} ms per case`);
    // About 5 ms on an idle 2-core box, nearly all of it binding the requests near 1 MiB (about
    // 100 ms each): still less than one call of a Node Provider.
    expect(perCase).toBeLessThan(40);
  });
});

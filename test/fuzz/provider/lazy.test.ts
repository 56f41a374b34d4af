/** Size-planned collections of thousands of members are built when first read; the coverage takes their shapes from how they were made. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wireJson, type JsonValue } from "../../../src/core/json/index.js";
import type { JsonObject } from "../../../src/core/provider/types.js";
import { ProviderCoverage } from "../../../src/fuzz/provider/coverage.js";
import { hostileKinds, validCaseArb } from "../../../src/fuzz/provider/index.js";
import { LAZY_MEMBERS } from "../../../src/fuzz/provider/sized.js";
import type { ProviderCase } from "../../../src/fuzz/types.js";
import { ctx, tool } from "./fixtures.js";

const cases = fc.sample(validCaseArb(ctx), { seed: 21, numRuns: 300 });
/** The tool members still waiting to be built (a getter in their place). */
const unbuilt = (c: ProviderCase): string[] => ["input", "result"].filter((key) => Object.getOwnPropertyDescriptor(tool(c), key)?.get !== undefined);
const coverageOf = (list: readonly ProviderCase[]): ReturnType<ProviderCoverage["summary"]> => {
  const coverage = new ProviderCoverage(hostileKinds(ctx));
  for (const c of list) coverage.add(c);
  return coverage.summary();
};

describe("lazy size-planned collections", () => {
  const lazy = cases.filter((c) => unbuilt(c).length > 0);
  const waitingAtFirst = new Map(lazy.map((c) => [c, unbuilt(c)]));

  it("are the large objects and arrays, and only those", () => {
    expect(lazy.filter((c) => c.label.includes("object of")).length).toBeGreaterThan(1);
    expect(lazy.filter((c) => c.label.includes("array of")).length).toBeGreaterThan(1);
    for (const c of cases) {
      for (const key of ["input", "result"]) {
        const waiting = unbuilt(c).includes(key);
        const members = /(\d+) members/.exec(c.label.split(", ").find((l) => /^tool\.\w+ (object|array) of/.test(l) && l.startsWith(`tool.${key} `)) ?? "")?.[1];
        expect(waiting, c.label).toBe(members !== undefined && Number(members) >= LAZY_MEMBERS);
      }
    }
  });

  it("are measured by the coverage without being built, as walking them would measure them", () => {
    const measured = coverageOf(cases);
    for (const c of lazy) expect(unbuilt(c).length, c.label).toBeGreaterThan(0);
    // Copies hold the built values and nothing known about them: the coverage walks them.
    const copies = cases.map((c): ProviderCase => ({ ...c, value: structuredClone(c.value) as JsonObject }));
    expect(measured).toEqual(coverageOf(copies));
  });

  it("read back as the bytes that were sent, and stay built", () => {
    for (const c of lazy) {
      for (const key of waitingAtFirst.get(c) ?? []) {
        const value = tool(c)[key] as JsonValue;
        expect(Object.keys(value as JsonObject).length).toBeGreaterThanOrEqual(LAZY_MEMBERS); // an array's keys are its indices
        expect(tool(c)[key]).toBe(value);
        expect(unbuilt(c)).not.toContain(key);
      }
      expect(wireJson(c.value as JsonObject)).toBe(Buffer.from(c.bytes).toString("utf8"));
    }
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CaseStream, casesOf, listedCases } from "../../src/fuzz/cases.js";

const arb = fc.record({ n: fc.nat(), s: fc.string({ maxLength: 8 }), list: fc.array(fc.integer(), { maxLength: 4 }) });

describe("CaseStream", () => {
  it("hands over exactly the cases fc.sample gives for the seed, from any start", async () => {
    expect(await casesOf(arb, 42, 0, 30)).toEqual(fc.sample(arb, { seed: 42, numRuns: 30 }));
    expect(await casesOf(arb, 42, 517, 530)).toEqual(fc.sample(arb, { seed: 42, path: "517", numRuns: 13 }));
    expect(await casesOf(arb, 42, 5, 5)).toEqual([]);
  });

  it("case i is the case the shrink step replays with path i", async () => {
    const cases = await casesOf(arb, 7, 0, 40);
    for (const i of [0, 13, 39]) {
      let first: unknown;
      await fc.check(fc.asyncProperty(arb, async (c) => {
        first ??= c;
        return true;
      }), { seed: 7, path: String(i), numRuns: 1 });
      expect(first).toEqual(cases[i]);
    }
  });

  it("takers waiting together each get the next case, with its index in the whole sequence", async () => {
    const stream = new CaseStream(fc.nat(), 3, 100, 106);
    const taken = await Promise.all(Array.from({ length: 8 }, () => stream.take()));
    expect(taken.map((t) => t?.index)).toEqual([100, 101, 102, 103, 104, 105, undefined, undefined]);
    expect(taken.slice(0, 6).map((t) => t?.value)).toEqual(fc.sample(fc.nat(), { seed: 3, path: "100", numRuns: 6 }));
  });

  it("after stop() no further case is handed over", async () => {
    const stream = new CaseStream(fc.nat(), 3, 0, 1000);
    expect((await stream.take())?.index).toBe(0);
    const waiting = stream.take();
    stream.stop();
    expect([await waiting, await stream.take()].filter((t) => t !== undefined).length).toBeLessThanOrEqual(1);
    expect(await stream.take()).toBeUndefined();
  });

  it("a generator that throws makes the take fail, not end quietly", async () => {
    const failing = fc.nat().map((n) => {
      if (n % 3 === 0) throw new Error(`generator broke on ${n}`);
      return n;
    });
    const stream = new CaseStream(failing, 1, 0, 200);
    await expect((async () => {
      for (let t = await stream.take(); t !== undefined; t = await stream.take());
    })()).rejects.toThrow(/generator broke/);
  });

  it("listedCases hands over cases made beforehand, in order, until stopped", async () => {
    const source = listedCases(["a", "b", "c"], 10);
    expect(await source.take()).toEqual({ value: "a", index: 10 });
    expect(await source.take()).toEqual({ value: "b", index: 11 });
    source.stop();
    expect(await source.take()).toBeUndefined();
    const all = listedCases(["x"]);
    expect([await all.take(), await all.take()]).toEqual([{ value: "x", index: 0 }, undefined]);
  });
});

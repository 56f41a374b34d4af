import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../../src/core/paths.js";
import { casesOf } from "../../../src/fuzz/cases.js";
import { providerCaseArb } from "../../../src/fuzz/provider/index.js";
import { lazyRecipe } from "../../../src/fuzz/provider/lazy.js";
import { packCase, unpackCase } from "../../../src/fuzz/provider/packed.js";
import type * as Run from "../../../src/fuzz/provider-run.js";
import type * as Thread from "../../../src/fuzz/provider/generator-thread.js";
import type * as Cases from "../../../src/fuzz/cases.js";
import { answering } from "../../../bench/kit-work.js";
import type { JsonObject } from "../../../src/core/provider/types.js";
import type { ProviderCase } from "../../../src/fuzz/types.js";
import { ctx } from "./fixtures.js";

/** Big integers (lossless numbers) written with their type. */
const typed = (_key: string, value: unknown): unknown => (typeof value === "bigint" ? `${value}n` : value);

/** The case with every member of its value read (lazy ones built), as JSON, keys in their order. */
const read = (c: ProviderCase | undefined): string => JSON.stringify(c === undefined ? null : { value: c.value ?? null, base: c.base ? read(c.base) : null, bytes: Buffer.from(c.bytes).toString("base64") }, typed);

describe("provider cases made in the generator thread", () => {
  it("a packed case, moved to another thread, is the same case: its bytes, its value with each lazy member built when read", async () => {
    const cases = await casesOf(providerCaseArb(ctx), 3, 0, 200);
    const withLazy = cases.filter((c) => {
      const tool = ((c.value ?? c.base?.value)?.event as JsonObject | undefined)?.tool as JsonObject | undefined;
      return tool !== undefined && (lazyRecipe(tool, "input") !== undefined || lazyRecipe(tool, "result") !== undefined);
    });
    // Seed 3 makes collections of thousands of members among its first 200 cases: they travel as their recipes.
    expect(withLazy.length).toBeGreaterThan(0);
    for (const c of cases) {
      const transfer: ArrayBuffer[] = [];
      const moved = unpackCase(structuredClone(packCase(c, transfer), { transfer }));
      expect(moved.label).toBe(c.label);
      expect(read(moved)).toBe(read(c));
    }
  });

  const dist = join(packageRoot(), "dist/src/fuzz");
  // The thread starts from the compiled kit (its entry is a .js file): `npm run build` first.
  it.skipIf(!existsSync(join(dist, "provider/generator-worker.js")))("a campaign whose cases come from the thread finds, judges and counts exactly what one generating them as it goes does", async () => {
    const run = (await import(pathToFileURL(join(dist, "provider-run.js")).href)) as typeof Run;
    const thread = (await import(pathToFileURL(join(dist, "provider/generator-thread.js")).href)) as typeof Thread;
    const { CaseStream } = (await import(pathToFileURL(join(dist, "cases.js")).href)) as typeof Cases;
    const source = thread.generatedCases(ctx, 1, 0, 3, "thread");
    expect(source).not.toBeInstanceOf(CaseStream);
    source.stop();
    for (const seed of [1, 5]) {
      const reports = await Promise.all(
        (["thread", "main"] as const).map(async (generator) => {
          const seen: string[] = [];
          const result = await run.fuzzProvider(ctx, { argv: ["unused"], config: ctx.config, timeoutMs: 1000 }, { runs: 120, seed, jobs: 2 }, { call: answering, generator, shrink: false, onResult: (c, index, findings) => void (seen[index] = JSON.stringify([c.label, read(c), findings], typed)) });
          return JSON.stringify({ result, seen }, typed);
        }),
      );
      expect(reports[0]).toBe(reports[1]);
      // The answering provider fails robustness clauses: there is something to compare.
      expect(JSON.parse(reports[1] as string).result.failures.length).toBeGreaterThan(0);
    }
  });
});

/** Shrinking runs the failures of different clauses --jobs at a time, and each clause gets the same shrunk case at any --jobs. */
import { describe, expect, it } from "vitest";
import { fuzzProvider } from "../../../src/fuzz/provider-run.js";
import type { ProviderCall } from "../../../src/runner/provider/call.js";
import { answering } from "../../../bench/kit-work.js";
import { ctx } from "./fixtures.js";

/**
 * A provider that answers every request ok at once, its request id and digest echoed, whatever
 * the request (so every hostile case is a failure to shrink); counts the calls out at once.
 */
function acceptingAll(): { call: ProviderCall; most: () => number; shrinking: () => void } {
  let out = 0;
  let most = 0;
  let counting = false;
  const call: ProviderCall = async (argv, request, options) => {
    out++;
    if (counting) most = Math.max(most, out);
    await new Promise((resolve) => setTimeout(resolve, 1));
    out--;
    return answering(argv, request, options);
  };
  return { call, most: () => most, shrinking: () => void (counting = true) };
}

describe("shrinking a campaign's failures", () => {
  it("shrinks --jobs clauses at once, and gives each clause the same shrunk case, path and finding as --jobs 1", async () => {
    const context = ctx;
    const campaign = async (jobs: number): Promise<{ failures: string[]; most: number }> => {
      const provider = acceptingAll();
      const progress = { cases: () => undefined, shrinking: provider.shrinking, end: () => undefined };
      const result = await fuzzProvider(context, { argv: ["unused"], config: context.config, timeoutMs: 1000 }, { runs: 40, seed: 3, jobs }, { call: provider.call, progress });
      return { failures: result.failures.map((f) => JSON.stringify([f.clause, f.path, f.finding.message, f.replay])), most: provider.most() };
    };
    const [one, three] = [await campaign(1), await campaign(3)];
    expect(one.failures.length).toBeGreaterThan(3);
    expect(three.failures).toEqual(one.failures);
    expect(one.most).toBe(1);
    expect(three.most).toBe(3);
  });
});

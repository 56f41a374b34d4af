import { describe, expect, it } from "vitest";
import { fuzzBudget } from "../../src/cli/fuzz.js";
import { KitError } from "../../src/core/errors.js";
import { budgetText, casesSoFar, TIME_BOXED_RUNS } from "../../src/fuzz/budget.js";
import { fuzzProvider } from "../../src/fuzz/provider-run.js";
import type { FuzzProgressHook } from "../../src/fuzz/types.js";
import type { ProviderCall } from "../../src/runner/provider/call.js";
import { ctx } from "./provider/fixtures.js";

/** A provider that answers at once: exit 0, an ok envelope (judged or not, it costs no process). */
const instant: ProviderCall = () =>
  Promise.resolve({
    outcome: { exitCode: 0, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false, durationMs: 1, stdoutBytes: 2, stderrBytes: 0, killedByKit: false },
    stdout: new TextEncoder().encode("{}\n"),
    stderr: new Uint8Array(),
  });

describe("--fuzz-time is a time box", () => {
  it("alone, it lifts the default count: cases until the time; with --fuzz-runs, whichever ends first; neither, the default", () => {
    const boxed = fuzzBudget({ fuzzTime: 60, seed: 1 }, 100);
    expect(boxed).toMatchObject({ runs: TIME_BOXED_RUNS, timeBoxed: true, timeSeconds: 60 });
    expect(budgetText(boxed)).toBe("cases until 60 s");
    expect(casesSoFar(12, boxed)).toBe("after 12 cases");
    const both = fuzzBudget({ fuzzTime: 60, fuzzRuns: 40, seed: 1 }, 100);
    expect(both.timeBoxed).toBeUndefined();
    expect(budgetText(both)).toBe("40 runs, at most 60 s");
    const neither = fuzzBudget({ seed: 1 }, 100);
    expect(neither).toMatchObject({ runs: 100 });
    expect(budgetText(neither)).toBe("100 runs");
    expect(casesSoFar(12, neither)).toBe("after 12 of 100 cases");
    // Shards split a fixed number of cases: a time box alone gives them none to split.
    expect(() => fuzzBudget({ fuzzTime: 60, seed: 1, shard: "1/2" }, 100)).toThrow(KitError);
    expect(fuzzBudget({ fuzzTime: 60, fuzzRuns: 10, seed: 1, shard: "1/2" }, 100).cases).toEqual({ from: 0, to: 5 });
  });

  it("a provider campaign under --fuzz-time 1 with instant answers runs past the default count, stops at the time, and reports progress", async () => {
    // A default of 5 runs (the command's is 100): the time box, not the count, ends the campaign.
    const budget = fuzzBudget({ fuzzTime: 1, seed: 7, jobs: 2 }, 5);
    const ticks: number[] = [];
    let ended = 0;
    const progress: FuzzProgressHook = { cases: (done) => void ticks.push(done), shrinking: () => undefined, end: () => void ended++ };
    const started = performance.now();
    const result = await fuzzProvider(ctx, { argv: ["unused"], config: ctx.config, timeoutMs: 1000 }, budget, { call: instant, shrink: false, progress });
    const seconds = (performance.now() - started) / 1000;
    expect(result.cases).toBeGreaterThan(5);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThan(4);
    expect(ticks.at(-1)).toBe(result.cases);
    expect(ended).toBe(1);
  });
});

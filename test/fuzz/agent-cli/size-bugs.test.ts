/**
 * Seeded size bugs the fixed scenarios never reach: a CLI that goes silent on a turn of more
 * than 12 content blocks, and one that exits on a text over 100 KiB. Each is found at a fixed
 * seed within a few sessions and shrunk to the threshold plus one. Sessions run --jobs at a
 * time; the seed decides the failure, not the number of jobs.
 */
import { describe, expect, it } from "vitest";
import { fuzzAgentCli, runAgentSteps } from "../../../src/fuzz/agent-cli/index.js";
import { AGENT_SIZES } from "../../../src/fuzz/agent-cli/coverage.js";
import type { FuzzFailure } from "../../../src/fuzz/types.js";
import { firstSent, fuzzContext, livingChildren, turnSteps, utf8 } from "./helpers.js";

const stepsOf = (f: FuzzFailure | undefined): ReturnType<typeof turnSteps> => turnSteps(f?.replay.protocol === "agent-cli" ? f.replay.steps : []);

describe("agent-cli fuzzer: a CLI silent on more than 12 content blocks", () => {
  it("is found in the sixth session at seed 28 and shrunk to one turn of exactly 13 blocks", async () => {
    // Seed 28's sixth session is one turn of 14 blocks beside the text: few failing sessions to shrink (each waits a turn timeout).
    const result = await fuzzAgentCli(fuzzContext("silent-over-12-blocks"), { runs: 6, seed: 28, jobs: 2 });
    const [failure] = result.failures;
    expect(failure?.clause).toBe("agent-cli/turns/one-terminal-per-turn");
    const turns = stepsOf(failure);
    expect(turns).toHaveLength(1);
    // The kit's text block and 12 more: the fault's threshold (12) plus one.
    expect(turns[0]?.blocks).toHaveLength(12);
    expect(result.calls - result.runs).toBeLessThan(25);
    expect(livingChildren()).toEqual([]);
  });
});

describe("agent-cli fuzzer: a CLI that exits on a text over 100 KiB", () => {
  const FAULT = "exit-on-text-over-100k";

  it("is found within 4 sessions at seed 10, 2 at a time, and shrunk to a text of exactly 100 KiB + 1 byte", async () => {
    const parallel = await fuzzAgentCli(fuzzContext(FAULT), { runs: 4, seed: 10, jobs: 2 });
    const [failure] = parallel.failures;
    expect(failure?.clause).toBe("agent-cli/turns/no-exit-mid-turn");
    expect(failure?.finding.message).toMatch(/exited on its own while turn fuzz-1 awaited its terminal event/);
    const turns = stepsOf(failure);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.blocks).toBeUndefined();

    const { findings, transcript } = await runAgentSteps(failure?.replay.protocol === "agent-cli" ? failure.replay.steps : [], fuzzContext(FAULT));
    expect(findings.map((f) => f.clause)).toEqual([failure?.clause]);
    expect(utf8(firstSent(transcript).text)).toBe(100 * 1024 + 1);

    // Coverage counts the sessions run before the failure was known, never the shrinking ones.
    const sessions = parallel.coverage.sizes.find((s) => s.name === AGENT_SIZES.turns)?.buckets.reduce((n, b) => n + b.count, 0);
    expect(sessions).toBe(parallel.runs);
    expect(parallel.calls).toBeGreaterThan(parallel.runs);
    expect(livingChildren()).toEqual([]);
  });
});

describe("agent-cli fuzzer: --jobs", () => {
  it("finds the same first failure at any --jobs: the seed decides, not the timing", async () => {
    const found = await Promise.all([1, 3].map((jobs) => fuzzAgentCli(fuzzContext("exit-on-text-over-100k"), { runs: 8, seed: 10, jobs }, undefined, { shrink: false })));
    const [serial, parallel] = found.map((r) => r.failures[0]);
    expect(serial?.path).toBe("3");
    expect(parallel?.path).toBe(serial?.path);
    expect(parallel?.replay).toEqual(serial?.replay);
    // Without shrinking, no session runs after the failure is known beyond those already started.
    expect(found[0]?.calls).toBe(found[0]?.runs);
  });

  it("runs sessions at the same time, each its own process", async () => {
    let most = 0;
    const timer = setInterval(() => (most = Math.max(most, livingChildren().length)), 5);
    try {
      const result = await fuzzAgentCli(fuzzContext(undefined, 4), { runs: 6, seed: 1, jobs: 3 });
      expect(result.failures).toEqual([]);
      expect(result.runs).toBe(6);
    } finally {
      clearInterval(timer);
    }
    expect(most).toBeGreaterThanOrEqual(2);
    expect(livingChildren()).toEqual([]);
  });
});

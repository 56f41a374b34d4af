/** The fuzzer finds the fake's drop-terminal-on-line-separator fault and shrinks it to one short turn. */
import { describe, expect, it } from "vitest";
import { fuzzAgentCli, runAgentSteps } from "../../../src/fuzz/agent-cli/index.js";
import type { FuzzFailure } from "../../../src/fuzz/types.js";
import { fuzzContext, livingChildren, turnSteps } from "./helpers.js";

const FAULT = "drop-terminal-on-line-separator";
// Seed 5 draws a turn with U+2028 in its second session.
const BUDGET = { runs: 2, seed: 5, jobs: 1 };

describe(`agent-cli fuzzer: ${FAULT}`, () => {
  let first: FuzzFailure | undefined;

  it("finds a missing terminal and shrinks it to a single short turn with U+2028", async () => {
    const result = await fuzzAgentCli(fuzzContext(FAULT), BUDGET);
    expect(result.failures).toHaveLength(1);
    first = result.failures[0] as FuzzFailure;
    expect(first.clause).toBe("agent-cli/turns/one-terminal-per-turn");
    expect(first.finding).toMatchObject({ clause: first.clause, foundBy: "fuzz" });
    expect(first.seed).toBe(BUDGET.seed);
    expect(first.path).toMatch(/^\d+(:\d+)*$/);
    expect(first.replay.protocol).toBe("agent-cli");
    const steps = first.replay.protocol === "agent-cli" ? first.replay.steps : [];
    expect(steps).toHaveLength(1);
    const [turn] = turnSteps(steps);
    expect(turn?.text).toContain("\u2028");
    expect([...(turn?.text ?? "")].length).toBeLessThanOrEqual(5);
    expect(turn?.blocks).toBeUndefined();
    // Every session was reaped, the failing ones (a check threw) included.
    expect(livingChildren()).toEqual([]);
  });

  it("replays the shrunk steps to the same clause failure", async () => {
    expect(first).toBeDefined();
    const steps = first?.replay.protocol === "agent-cli" ? first.replay.steps : [];
    const { findings, transcript } = await runAgentSteps(steps, fuzzContext(FAULT));
    expect(findings[0]?.clause).toBe(first?.clause);
    expect(findings[0]?.foundBy).toBe("fuzz");
    expect(transcript.events.some((e) => e.kind === "exit")).toBe(true);
    expect(livingChildren()).toEqual([]);
  });

});

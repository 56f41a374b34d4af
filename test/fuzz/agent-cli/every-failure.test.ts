/**
 * A campaign reports every clause its counted sessions broke, not only the one it shrinks: a
 * session that breaks two clauses at once (a session_id out of form and negative usage in the
 * same result line) gives a failure, with the steps that replay it, for each. A clause a
 * session failed never passes for want of a kept failure.
 */
import { describe, expect, it } from "vitest";
import { fuzzAgentCli } from "../../../src/fuzz/agent-cli/index.js";
import { fuzzContext, livingChildren } from "./helpers.js";

describe("agent-cli fuzzer: every failing clause is reported", () => {
  it("reports both clauses one result line breaks, each with its session's steps", async () => {
    const ctx = fuzzContext("bad-session-id", 2);
    const two = { ...ctx, config: { ...ctx.config, prefixArgs: [...ctx.config.prefixArgs, "--fault", "negative-usage"] } };
    const result = await fuzzAgentCli(two, { runs: 3, seed: 1, jobs: 1 }, undefined, { shrink: false });
    const clauses = result.failures.map((f) => f.clause).sort();
    expect(clauses).toEqual(["agent-cli/session/id-form", "agent-cli/turns/usage-counts"]);
    for (const failure of result.failures) {
      expect(failure.replay.protocol === "agent-cli" ? failure.replay.steps.some((s) => s.op === "turn") : false).toBe(true);
      expect(failure.path).toBe(result.failures[0]?.path);
    }
    expect(result.tally.clauses["agent-cli/turns/usage-counts"]?.failed).toBeGreaterThan(0);
    expect(livingChildren()).toEqual([]);
  });
});

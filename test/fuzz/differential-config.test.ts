/** --against-config-*: the other provider gets every case moved to its own configuration, which the reference provider (that verifies input_digest) accepts. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { configRevision } from "../../src/core/provider/digest.js";
import type { JsonObject } from "../../src/core/provider/types.js";
import { DifferentialRun } from "../../src/fuzz/differential/campaign.js";
import { swapOf } from "../../src/fuzz/differential/config.js";
import { differenceOf } from "../../src/fuzz/differential/pair.js";
import { hostileCaseArb, validCaseArb } from "../../src/fuzz/provider/index.js";
import type { ProviderFuzzContext } from "../../src/fuzz/types.js";

const REFERENCE = join(import.meta.dirname, "../../examples/reference-provider/provider.mjs");
const mine = { value: { blocked_tools: ["example_tool"] }, document: '{"blocked_tools":["example_tool"]}' };
const theirs = { value: { blocked_tools: ["other_tool"] }, document: '{ "blocked_tools": ["other_tool"] }' };
const ctx: ProviderFuzzContext = { operations: [{ name: "check", events: ["tool.before"], effects: ["block"] }], config: mine.value, configRevision: configRevision(mine.document), budgetMs: 5000, configFocus: true };
const tool = (c: { value?: JsonObject }): JsonObject => ((c.value?.event as JsonObject).tool as JsonObject);

describe("the other provider's own configuration", () => {
  const swap = swapOf(mine, theirs);
  const run = new DifferentialRun({ candidate: { argv: [REFERENCE], config: mine.value, timeoutMs: 10_000 }, against: { argv: [REFERENCE], config: theirs.value, timeoutMs: 10_000 }, ...(swap !== undefined ? { swap } : {}) });

  it("is validated with its own configuration, and decides on it", async () => {
    await run.prepare(mine.value);
    expect(run.found).toBe(0);
    const blocked = fc.sample(validCaseArb(ctx, { maxBytes: 4096 }), { seed: 2, numRuns: 40 }).find((c) => tool(c).native_name === "example_tool")!;
    const { mine: a, theirs: b } = await run.both(blocked);
    // The other accepted the moved request (it verifies the digest) and does not block a tool its configuration does not name.
    expect(differenceOf(blocked, a, b)).toMatchObject({ key: "invoke|effects", candidate: { outcome: "ok", effects: ["block"] }, against: { outcome: "ok", effects: [] } });
  }, 60_000);

  it("keeps every hostile defect: the same provider refuses each moved request as it refuses the original", async () => {
    const cases = fc.sample(hostileCaseArb({ ...ctx, configFocus: false }), { seed: 4, numRuns: 30 }).filter((c) => c.bytes.length < 20_000 && c.base !== undefined && tool(c.base).native_name !== "example_tool").slice(0, 6);
    expect(cases.length).toBe(6);
    for (const c of cases) {
      const { mine: a, theirs: b } = await run.both(c);
      expect([c.purpose, differenceOf(c, a, b)]).toEqual([c.purpose, undefined]);
    }
  }, 60_000);
});

/**
 * The failure probes' bound is --stall-timeout, not --turn-timeout: a CLI that gives up on a
 * stalled model later than the per-turn timeout but within the stall timeout passes (the
 * mock's slow-stall-give-up fault takes 40 s by default; here a few seconds, with the bounds
 * scaled down alike), and one that takes longer than the stall timeout fails with the bound
 * and without a word about the turn queued behind it. The probes also run beside the other
 * scenarios, outside --jobs.
 */
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { readLaunch } from "../../../src/cli/agent-options.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { DEFAULT_BOUNDS, type ScenarioName } from "../../../src/core/agent-cli/scenarios.js";
import { boundsFrom, recordAgentCliRun, stallLimitFor, type AgentCliSuiteOptions } from "../../../src/runner/agent-cli/driver.js";

const FAKE = fileURLToPath(new URL("../../../dist/src/mocks/agent-cli.js", import.meta.url));
const STALL = "agent-cli/failures/model-stall";
/** When the fake gives up on the stalled model, unless a test says otherwise. */
const GIVE_UP_MS = 3000;

function launch(giveUpMs: number, faults: string[] = []): Pick<AgentCliSuiteOptions, "config" | "facts"> {
  return readLaunch({
    candidate: FAKE,
    rest: ["--fault", `slow-stall-give-up:ms=${giveUpMs}`, ...faults.flatMap((f) => ["--fault", f])],
    env: ["AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "AWP_REFERENCE_API_KEY={{fixture.token}}"],
  });
}

async function probe(options: Partial<AgentCliSuiteOptions> & { scenarios: ScenarioName[] }, giveUpMs = GIVE_UP_MS, faults: string[] = []): Promise<{ stall: ClauseResult | undefined; notes: string[]; done: Map<string, number> }> {
  const started = performance.now();
  const done = new Map<string, number>();
  const run = await recordAgentCliRun({ ...launch(giveUpMs, faults), quietWindowMs: 100, ...options, onScenario: (name) => done.set(name, performance.now() - started) });
  const { results, notes } = judgeAgentRun(run, (id) => id === STALL);
  return { stall: results.find((r) => r.id === STALL), notes, done };
}

describe("failure probes: --stall-timeout bounds the failing turn", () => {
  it("the fixture keeps a stall open longer than the kit waits for it, whatever the bounds", () => {
    expect(boundsFrom({})).toEqual(DEFAULT_BOUNDS);
    for (const stallTimeoutMs of [1, 1200, 180_000, 600_000]) {
      const bounds = boundsFrom({ stallTimeoutMs });
      expect(stallLimitFor(bounds)).toBeGreaterThan(stallTimeoutMs + bounds.turnTimeoutMs);
    }
  });

  it.concurrent("a CLI that gives up after the turn timeout but within the stall timeout passes, and the probe runs beside the rest outside --jobs", async () => {
    // Wide bounds: on a loaded 2-core box the basic scenario alone can take 4 s.
    const giveUpMs = 8000;
    const { stall, notes, done } = await probe({ scenarios: ["basic", "failures-stall"], jobs: 1, turnTimeoutMs: 5000, stallTimeoutMs: 16_000 }, giveUpMs);
    expect(stall?.status).toBe("pass");
    const note = notes.find((n) => n.startsWith("failures/model-stall:"));
    expect(note).toMatch(/^failures\/model-stall: the CLI ended the stalled turn after \d+\.\d s \(1 model request\)$/);
    const after = Number(/after (\d+\.\d) s/.exec(note ?? "")?.[1]);
    expect(after).toBeGreaterThanOrEqual(giveUpMs / 1000);
    expect(after).toBeLessThan(16);
    // With --jobs 1 the basic scenario still finished before the probe's CLI could have given up.
    expect(done.get("basic")).toBeLessThan(giveUpMs);
    expect(done.get("failures-stall")).toBeGreaterThan(giveUpMs);
  }, 40_000);

  it.concurrent("a CLI slower than the stall timeout fails with the bound and the time, and the good turn is never sent", async () => {
    // --turn-timeout only bounds the wait for the probe's request to reach the model here: generous,
    // so a loaded box's slow start cannot stop the probe before the stall it is about.
    const { stall } = await probe({ scenarios: ["failures-stall"], turnTimeoutMs: 10_000, stallTimeoutMs: 1200 });
    expect(stall?.status).toBe("fail");
    expect(stall?.findings).toHaveLength(1);
    const [only] = stall?.findings ?? [];
    expect(only?.message).toBe("after a stalled stream: no terminal event within 1.2 s (--stall-timeout, the kit's bound); the kit stopped waiting");
    expect(only?.seen).toBe("still running after 1.2 s, 1 model request");
    expect(JSON.stringify(only)).not.toContain("fail-stall-next");
  }, 30_000);

  it.concurrent("--stall-timeout counts from when the request reached the model: a CLI slow to start its turn, quick to give up, passes", async () => {
    // The turn starts 6 s late, longer than the 5 s stall bound; the CLI then gives up 2.5 s after
    // it began its request. Counted from the send, the bound would end before the stall began.
    // The fake arms its give-up timer before fetch() loads in a fresh process: on a loaded box that
    // took over 0.4 s, the CLI gave up before its request reached the model, and the kit rightly
    // had nothing to judge. 2.5 s leaves that room, and 2.5 s between the give-up and the bound.
    const { stall, notes } = await probe({ scenarios: ["failures-stall"], turnTimeoutMs: 15_000, stallTimeoutMs: 5000 }, 2500, ["slow-turn-start:ms=6000"]);
    expect(stall?.status, JSON.stringify({ stall, notes })).toBe("pass");
    expect(notes.find((n) => n.startsWith("failures/model-stall:"))).toMatch(/^failures\/model-stall: the CLI ended the stalled turn after \d+\.\d s \(1 model request\)$/);
  }, 45_000);
});

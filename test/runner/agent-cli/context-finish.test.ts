import { describe, expect, it } from "vitest";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import type { ModelFixture } from "../../../src/servers/index.js";
import type { LaunchConfig } from "../../../src/core/agent-cli/launch.js";
import { ScenarioContext } from "../../../src/runner/agent-cli/context.js";

/**
 * A model call is recorded when it finishes, and a stalled call finishes only when its socket
 * closes or the fixture closes, after the scenario's processes were stopped. ScenarioContext.finish
 * closes the scenario's fixtures before it stops listening, so that record is never lost to a slow
 * close (in fixed scenarios and fuzzed sessions alike).
 */
function fakeFixture(): ModelFixture & { closed: number } {
  const listeners = new Set<(call: ModelCall) => void>();
  const stalled = { seq: 1, outcome: "stalled" } as unknown as ModelCall;
  const fixture = {
    closed: 0,
    port: 0,
    openaiBase: "http://127.0.0.1:0/v1",
    anthropicBase: "http://127.0.0.1:0",
    token: undefined,
    calls: () => [stalled],
    onCall: (listener: (call: ModelCall) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // Closing finishes the call still open, as the real fixture's finishAll does.
    close: async () => {
      fixture.closed++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const listener of [...listeners]) listener(stalled);
    },
  };
  return fixture;
}

describe("ScenarioContext.finish", () => {
  it("closes the scenario's fixture and records the call it finishes while closing", async () => {
    const fixture = fakeFixture();
    const ctx = new ScenarioContext({ name: "failures-stall", mode: "stream-json", config: {} as LaunchConfig, fixture, placeholders: {}, turnTimeoutMs: 1000, cwd: "/", home: "/", launcherEnv: {} });
    await ctx.finish();
    expect(fixture.closed).toBe(1);
    expect(ctx.events.filter((e) => e.kind === "model")).toHaveLength(1);
    // After finish, the scenario listens no more: a later finish of the fixture adds nothing.
    await fixture.close();
    expect(ctx.events.filter((e) => e.kind === "model")).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import type { ModelCall } from "../../../src/core/agent-cli/types.js";
import type { ModelFixture } from "../../../src/fixtures/index.js";
import type { LaunchConfig } from "../../../src/core/agent-cli/launch.js";
import { ScenarioContext } from "../../../src/runner/agent-cli/context.js";

/**
 * A model call is recorded when it finishes, and a stalled call finishes only when its socket
 * closes or the fixture closes, after the scenario's processes were stopped. ScenarioContext.finish
 * closes the fixtures before it stops listening, so that record is never lost to a slow close.
 */
function fakeFixture(): ModelFixture {
  const listeners = new Set<(call: ModelCall) => void>();
  const stalled = { seq: 1, outcome: "stalled" } as unknown as ModelCall;
  return {
    port: 0,
    openaiBase: "http://127.0.0.1:0/v1",
    anthropicBase: "http://127.0.0.1:0",
    token: undefined,
    calls: () => [stalled],
    onCall: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // Closing finishes the call still open, as the real fixture's finishAll does.
    close: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const listener of [...listeners]) listener(stalled);
    },
  };
}

function context(fixture: ModelFixture): ScenarioContext {
  return new ScenarioContext({ name: "failures-stall", mode: "stream-json", config: {} as LaunchConfig, fixture, placeholders: {}, turnTimeoutMs: 1000, cwd: "/", home: "/", launcherEnv: {} });
}

describe("ScenarioContext.finish", () => {
  it("records a call the fixture finishes while it closes", async () => {
    const fixture = fakeFixture();
    const ctx = context(fixture);
    await ctx.finish(() => fixture.close());
    expect(ctx.events.filter((e) => e.kind === "model")).toHaveLength(1);
  });

  it("(without the fixtures to close, a call finished after it is not the scenario's any more)", async () => {
    const fixture = fakeFixture();
    const ctx = context(fixture);
    await ctx.finish();
    await fixture.close();
    expect(ctx.events.filter((e) => e.kind === "model")).toHaveLength(0);
  });
});

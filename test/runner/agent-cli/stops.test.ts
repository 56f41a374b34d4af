/**
 * A scenario stops at its first unanswered turn; the run stops every scenario once the CLI
 * has shown it answers nothing, or at --run-timeout. A CLI that answers (even slowly, or
 * all but one turn) is never stopped as a whole.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readLaunch } from "../../../src/cli/agent-options.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { ScenarioName } from "../../../src/core/agent-cli/scenarios.js";
import type { Transcript } from "../../../src/core/agent-cli/types.js";
import type { ClauseResult } from "../../../src/core/report/types.js";
import { recordAgentCliRun, type AgentCliSuiteOptions } from "../../../src/runner/agent-cli/driver.js";

const MOCK = fileURLToPath(new URL("../../../dist/src/mocks/agent-cli.js", import.meta.url));
const REFERENCE_ENV = ["AWP_REFERENCE_API_BASE_URL={{fixture.openai}}", "AWP_REFERENCE_API_KEY={{fixture.token}}", "AWP_REFERENCE_TIMEOUT_MS=2000"];

/** The agent-cli mock with these faults. */
function launch(faults: string[], env: string[] = REFERENCE_ENV): Pick<AgentCliSuiteOptions, "config" | "facts"> {
  return readLaunch({ candidate: MOCK, rest: faults.flatMap((f) => ["--fault", f]), env });
}

const sends = (t: Transcript): string[] => t.events.flatMap((e) => (e.kind === "send" ? [e.line] : []));
const timeouts = (ts: readonly Transcript[]): number => ts.flatMap((t) => t.events).filter((e) => e.kind === "timeout" && /terminal event/.test(e.waitingFor)).length;
/** The shutdown bound of runs whose CLI must pass shutdown-line: the default 1 s is the kit's choice, too tight for a Node CLI on a loaded 2-core box. */
const LOADED_SHUTDOWN_MS = 5000;
const byId = (results: readonly ClauseResult[], id: string): ClauseResult | undefined => results.find((r) => r.id === id);

describe("a scenario stops at its first unanswered turn", () => {
  it.concurrent("the later steps are not run, their clause is skipped naming the turn, and the other scenarios run on", async () => {
    const run = await recordAgentCliRun({ ...launch(["silent-on-turn"]), scenarios: ["basic", "shutdown"], turnTimeoutMs: 3000, quietWindowMs: 100, shutdownTimeoutMs: LOADED_SHUTDOWN_MS });
    const basic = run.transcripts.find((t) => t.scenario === "basic") as Transcript;
    // basic-2 went unanswered: stdin was never closed, so stdin-eof was not tried.
    expect(sends(basic).map((line) => /turn=(basic-\d)/.exec(line)?.[1])).toEqual(["basic-1", "basic-2"]);
    expect(basic.events.some((e) => e.kind === "action" && e.action === "close-stdin")).toBe(false);
    expect(run.stops).toEqual([{ scenario: "basic", cause: "unanswered", turn: "turn 2 (basic-2)", waitedMs: 3000, bound: "--turn-timeout", started: true }]);
    // The CLI had spoken: the run went on (shutdown ran in full).
    expect(run.transcripts.find((t) => t.scenario === "shutdown")?.events.some((e) => e.kind === "send" && e.line.includes('"shutdown"'))).toBe(true);

    const { results, halted } = judgeAgentRun(run);
    expect(halted).toBeUndefined();
    const terminal = byId(results, "agent-cli/turns/one-terminal-per-turn");
    expect(terminal?.status).toBe("fail");
    expect(terminal?.findings).toHaveLength(1);
    expect(byId(results, "agent-cli/termination/stdin-eof")).toMatchObject({
      status: "skip",
      reason: "the CLI did not answer turn 2 (basic-2) of scenario basic within 3000 ms (--turn-timeout), so the kit ran none of its later steps: make the CLI answer that turn (see agent-cli/turns/one-terminal-per-turn), or raise --turn-timeout if it is only slow",
    });
    expect(byId(results, "agent-cli/termination/shutdown-line")?.status).toBe("pass");
    expect(results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/turns/one-terminal-per-turn"]);
  }, 30_000);

  it.concurrent("an unanswered mcp turn fails one-terminal-per-turn only; mcp-config is skipped, not failed twice", async () => {
    const run = await recordAgentCliRun({ ...launch(["silent-on-turn:turn=mcp-1"]), scenarios: ["basic", "mcp"], turnTimeoutMs: 3000, quietWindowMs: 100 });
    const { results } = judgeAgentRun(run);
    expect(results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/turns/one-terminal-per-turn"]);
    expect(byId(results, "agent-cli/input/mcp-config")?.reason).toMatch(/^the CLI did not answer turn 1 \(mcp-1\) of scenario mcp within 3000 ms/);
  }, 30_000);
});

describe("a CLI that answers nothing stops the whole run", () => {
  const all: ScenarioName[] = ["basic", "queued", "content", "malformed", "tools", "mcp", "resume", "failures-error", "failures-stall", "shutdown", "sigterm-idle", "sigterm-mid-turn"];

  it.concurrent("after one wave: the first wait that runs out stops every running scenario, the rest never start", async () => {
    const run = await recordAgentCliRun({ ...launch(["silent"], []), scenarios: all, jobs: 2, turnTimeoutMs: 1000, quietWindowMs: 100 });
    const stops = run.stops ?? [];
    // Two workers plus the two failure probes ran; at most their four turns in flight ran out
    // (a probe's turn whose request never reached the model is bounded by --turn-timeout too).
    const started = stops.filter((s) => s.started).map((s) => s.scenario).sort();
    expect(started).toEqual(["basic", "failures-error", "failures-stall", "queued"]);
    expect(stops.filter((s) => !s.started).map((s) => s.cause)).toEqual(Array(8).fill("never-answered"));
    expect(run.transcripts.map((t) => t.scenario).sort()).toEqual(started);
    const ranOut = timeouts(run.transcripts);
    expect(ranOut).toBeGreaterThanOrEqual(1);
    expect(ranOut).toBeLessThanOrEqual(4);
    expect(stops.filter((s) => s.cause === "unanswered").length).toBeGreaterThanOrEqual(1);

    const { results, halted } = judgeAgentRun(run);
    expect(halted).toMatch(/^the CLI never answered a turn: no turn got a terminal event within 1000 ms \(--turn-timeout\); it wrote nothing on stdout; nothing on stderr; nor did it ever call the kit's model fixture \(if it tried: point .*\): make it read/);
    expect(results.filter((r) => r.status === "fail").map((r) => r.id)).toEqual(["agent-cli/turns/one-terminal-per-turn"]);
    const skipped = results.filter((r) => r.status === "skip");
    expect(skipped.length).toBeGreaterThan(25);
    expect(new Set(skipped.map((r) => r.reason))).toEqual(new Set([halted]));
  }, 30_000);

  it.concurrent("a CLI whose turns all run late but that speaks JSON is not stopped as a whole", async () => {
    // Every basic and queued turn goes unanswered, but the CLI streams JSON events for them.
    const run = await recordAgentCliRun({ ...launch(["silent-on-turn:turn=basic-1"]), scenarios: ["basic", "tools", "mcp"], jobs: 1, turnTimeoutMs: 3000, quietWindowMs: 100 });
    expect(run.stops?.map((s) => s.scenario)).toEqual(["basic"]);
    expect(run.transcripts.map((t) => t.scenario)).toEqual(["basic", "tools", "mcp"]);
    const { results } = judgeAgentRun(run);
    expect(byId(results, "agent-cli/input/mcp-config")?.status).toBe("pass");
  }, 30_000);
});

describe("--run-timeout", () => {
  it.concurrent("ends every process, judges what was done, and skips the rest naming --run-timeout, without a false failure", async () => {
    const started = performance.now();
    // The stall probe's CLI gives up only after 40 s; the run ends at 8 s (basic and shutdown finish well before, even on a loaded box).
    const run = await recordAgentCliRun({ ...launch(["slow-stall-give-up"]), scenarios: ["basic", "failures-stall", "shutdown"], quietWindowMs: 100, runTimeoutMs: 8000, shutdownTimeoutMs: LOADED_SHUTDOWN_MS });
    expect(performance.now() - started).toBeLessThan(16_000);
    expect(run.stops).toEqual([{ scenario: "failures-stall", cause: "run-timeout", started: true }]);
    expect(run.transcripts.flatMap((t) => t.events).filter((e) => e.kind === "exit").every((e) => e.kind === "exit" && (e.code !== null || e.signal !== null))).toBe(true);
    const { results, halted } = judgeAgentRun(run);
    expect(halted).toMatch(/^the run reached --run-timeout \(8000 ms, 8 s\) before every scenario finished: the kit ended every candidate process/);
    expect(results.filter((r) => r.status === "fail")).toEqual([]);
    expect(byId(results, "agent-cli/failures/model-stall")).toMatchObject({ status: "skip", reason: expect.stringMatching(/^the run reached --run-timeout \(8000 ms, 8 s\) before the failures-stall scenario finished/) });
    expect(byId(results, "agent-cli/termination/shutdown-line")?.status).toBe("pass");
  }, 30_000);
});

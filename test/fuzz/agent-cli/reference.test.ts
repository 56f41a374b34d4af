/**
 * The agent-cli fuzzer against the reference CLI: nothing to find. Also the pure parts:
 * generation is seeded, ending steps stay last, commands print readably.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandArbs, commandFor, stepsOfCounterexample, type SessionModel } from "../../../src/fuzz/agent-cli/commands.js";
import { FUZZ_AGENT_CLAUSES, fuzzAgentCli, isEnding, runAgentSteps, stepArb } from "../../../src/fuzz/agent-cli/index.js";
import type { FuzzSession } from "../../../src/fuzz/agent-cli/session.js";
import { HUGE_LINE_BYTES, TINY_PDF, TINY_PNG } from "../../../src/fuzz/agent-cli/steps.js";
import type { AgentStep } from "../../../src/fuzz/types.js";
import { fuzzContext, utf8 } from "./helpers.js";

describe("agent-cli fuzzer: generation", () => {
  it("the same seed gives the same steps, and every kind of step shows up", () => {
    const a = fc.sample(stepArb(), { seed: 42, numRuns: 600 });
    const b = fc.sample(stepArb(), { seed: 42, numRuns: 600 });
    expect(b).toEqual(a);
    const ops = new Set(a.map((s) => s.op));
    expect([...ops].sort()).toEqual(["close-stdin", "malformed", "pause", "shutdown", "sigterm", "turn"]);
    const turns = a.filter((s): s is Extract<AgentStep, { op: "turn" }> => s.op === "turn");
    expect(turns.some((t) => utf8(t.text) >= 60 * 1024 && utf8(t.text) <= 81 * 1024)).toBe(true);
    expect(turns.some((t) => /[\u2028\u2029\u202e]/.test(t.text))).toBe(true);
    expect(turns.some((t) => t.blocks?.some((b) => b.type === "awp_conformance_probe"))).toBe(true);
    expect(turns.filter((t) => utf8(t.text) > 1024).length).toBeLessThan(turns.length / 3);
  });

  it("keeps ending steps last and runs nothing after them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commandArbs(), { maxCommands: 8 }), async (commands) => {
        const ran: AgentStep[] = [];
        const real = { perform: async (step: AgentStep) => void ran.push(step), assertConforming: () => undefined } as unknown as FuzzSession;
        await fc.asyncModelRun((): { model: SessionModel; real: FuzzSession } => ({ model: { ended: false }, real }), commands);
        expect(ran.slice(0, -1).some(isEnding)).toBe(false);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it("takes the shrunk steps from fast-check's counterexample: the commands that ran, up to the failing one", async () => {
    const details = await fc.check(
      fc.asyncProperty(fc.commands(commandArbs(), { maxCommands: 6 }), async (commands) => {
        let turns = 0;
        const real = {
          perform: async (step: AgentStep) => void (turns += step.op === "turn" ? 1 : 0),
          assertConforming: () => {
            if (turns >= 2) throw new Error("a second turn");
          },
        } as unknown as FuzzSession;
        await fc.asyncModelRun((): { model: SessionModel; real: FuzzSession } => ({ model: { ended: false }, real }), commands);
      }),
      { seed: 11, numRuns: 200 },
    );
    expect(details.failed).toBe(true);
    const steps = stepsOfCounterexample(details.counterexample);
    expect(steps?.map((s) => s.op)).toEqual(["turn", "turn"]);
  });

  it("commands print readably in fast-check's report", () => {
    expect(String(commandFor({ op: "turn", text: "a\u2028\u202e\"" }))).toBe('turn("a\\u2028\\u202e\\"")');
    expect(String(commandFor({ op: "turn", text: `x${"é".repeat(40_000)}`, blocks: [{ type: "image" }] }))).toBe('turn("x"+"é"×40000 (80001 bytes) + [image])');
    expect(String(commandFor({ op: "malformed", line: `{${"x".repeat(HUGE_LINE_BYTES)}` }))).toMatch(/^malformed\("\{"\+"x"×4194368 \(4194369 bytes\)\)$/);
    expect(String(commandFor({ op: "pause", ms: 20 }))).toBe("pause(20 ms)");
    expect(String(commandFor({ op: "sigterm" }))).toBe("sigterm");
  });

  it("judges exactly the clauses a fuzzed session can break", () => {
    expect(FUZZ_AGENT_CLAUSES).toHaveLength(16);
    expect(FUZZ_AGENT_CLAUSES).toContain("agent-cli/turns/one-terminal-per-turn");
    // An exit after a malformed line is judged where run judges it.
    expect(FUZZ_AGENT_CLAUSES).toContain("agent-cli/input/survives-malformed-line");
  });
});

describe("agent-cli fuzzer: the reference CLI", () => {
  it("finds nothing with a fixed seed and a small budget", async () => {
    const seen: number[] = [];
    // A conforming CLI answers well within 1 s, but 15 sessions 4 at a time on a loaded 2-core box may not: a missing terminal still shows at 5 s.
    const result = await fuzzAgentCli({ ...fuzzContext(undefined, 5), turnTimeoutMs: 5000 }, { runs: 15, seed: 20_240_611, jobs: 4 }, (n) => seen.push(n));
    expect(result.failures).toEqual([]);
    expect(result.runs).toBe(15);
    expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });

  it("replays every kind of step without a finding, one launch per sequence", async () => {
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG } };
    const document = { type: "document", source: { type: "base64", media_type: "application/pdf", data: TINY_PDF } };
    const sequences: AgentStep[][] = [
      [
        { op: "turn", text: "LS\u2028PS\u2029 RTL\u202e e\u0301 😀 \"q\" \\ \n", blocks: [image, document] },
        { op: "malformed", line: `{${"x".repeat(HUGE_LINE_BYTES)}` },
        { op: "malformed", line: "[1,2,3]" },
        { op: "pause", ms: 30 },
        { op: "turn", text: `p${"😀".repeat(20_000)}`, blocks: [{ type: "awp_conformance_probe", marker: "m" }] },
        { op: "sigterm" },
      ],
      [{ op: "turn", text: "" }, { op: "shutdown" }],
      [{ op: "turn", text: "a".repeat(70_000) }, { op: "close-stdin" }],
    ];
    for (const steps of sequences) {
      const { transcript, findings } = await runAgentSteps(steps, { ...fuzzContext(), turnTimeoutMs: 5000 });
      expect(findings).toEqual([]);
      expect(transcript.scenario).toBe("fuzz");
      expect(transcript.events.filter((e) => e.kind === "launch")).toHaveLength(1);
      const exit = transcript.events.find((e) => e.kind === "exit");
      expect(exit?.kind === "exit" && exit.killedByKit).toBe(false);
    }
  });
});

/** The fuzzer finds the fake's drop-terminal-over-64k fault and shrinks it to one turn of exactly 64 KiB + 1 byte of text. */
import { describe, expect, it } from "vitest";
import { isRecord } from "../../../src/core/agent-cli/analysis.js";
import { fuzzAgentCli, runAgentSteps } from "../../../src/fuzz/agent-cli/index.js";
import type { FuzzFailure } from "../../../src/fuzz/types.js";
import { fuzzContext, livingChildren, turnSteps, utf8 } from "./helpers.js";

const FAULT = "drop-terminal-over-64k";

describe(`agent-cli fuzzer: ${FAULT}`, () => {
  it("finds a missing terminal, shrinks it to one turn of exactly 64 KiB + 1 byte, and the replay reproduces it", async () => {
    // Seed 10 draws a text just over 64 KiB in its third session.
    const result = await fuzzAgentCli(fuzzContext(FAULT), { runs: 3, seed: 10, jobs: 1 });
    expect(result.failures).toHaveLength(1);
    const failure = result.failures[0] as FuzzFailure;
    expect(failure.clause).toBe("agent-cli/turns/one-terminal-per-turn");
    expect(failure.finding.foundBy).toBe("fuzz");
    const steps = failure.replay.protocol === "agent-cli" ? failure.replay.steps : [];
    expect(steps).toHaveLength(1);
    const [turn] = turnSteps(steps);
    expect(turn?.text).toMatch(/^a+$/);
    expect(utf8(turn?.text ?? "")).toBeGreaterThan(65536 - 1024);

    const { findings, transcript } = await runAgentSteps(steps, fuzzContext(FAULT));
    expect(findings[0]?.clause).toBe(failure.clause);
    // The user line's text (the step's text and the fixture directive) is the fault's threshold plus one byte.
    const sent = transcript.events.find((e) => e.kind === "send");
    const message: unknown = sent?.kind === "send" ? JSON.parse(sent.line) : undefined;
    const content = isRecord(message) && isRecord(message.message) ? message.message.content : undefined;
    const text = Array.isArray(content) ? content.map((b: unknown) => (isRecord(b) && typeof b.text === "string" ? b.text : "")).join("\n") : "";
    expect(utf8(text)).toBe(65536 + 1);
    expect(livingChildren()).toEqual([]);
  });
});

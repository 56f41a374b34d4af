/**
 * What Claude Code 2.1.332 and Qwen Code 0.24.4 really did in the kit's queued scenario
 * (recorded offline with `awp-conformance record --scenario queued`, trimmed; see
 * test/fixtures/captures/README.md), judged as `awp-conformance check` judges them:
 * Claude Code merges the two lines written during a turn into one model request and answers
 * it once; Qwen Code answers three queued lines in the order 2, 3, 1.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { viewProcesses } from "../../../src/core/agent-cli/analysis.js";
import { parseTranscript } from "../../../src/core/agent-cli/golden.js";
import { judgeAgentRun } from "../../../src/core/agent-cli/judge.js";
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import type { ClauseResult } from "../../../src/core/report/types.js";

const CAPTURES = new URL("../../fixtures/captures/", import.meta.url);

function recorded(file: string): AgentRun {
  const transcript = parseTranscript(readFileSync(new URL(file, CAPTURES)), file);
  return { mode: transcript.mode, transcripts: [transcript], turnTimeoutMs: 30_000, offline: true };
}

function clause(run: AgentRun, id: string): ClauseResult {
  const found = judgeAgentRun(run, (c) => c === id).results.find((r) => r.id === id);
  if (found === undefined) throw new Error(`${id} was not judged`);
  return found;
}

const failing = (run: AgentRun): string[] => judgeAgentRun(run).results.filter((r) => r.status === "fail").map((r) => r.id);

describe("Claude Code 2.1.332, queued scenario: lines written during a turn merged into one request", () => {
  const run = recorded("claude-code-2.1.332_queued.jsonl");

  it("names the merge under one-terminal-per-turn, with the request that carried both lines, not a timeout to raise", () => {
    const one = clause(run, "agent-cli/turns/one-terminal-per-turn");
    expect(one.status).toBe("fail");
    expect(one.findings).toHaveLength(1);
    const [merged] = one.findings;
    expect(merged?.message).toBe("the CLI merged this line (queued-3) with queued-2 into one model request (#2, whose last user message carried both lines) and answered that request with one terminal event: this line got none of its own");
    expect(merged?.seen).toMatch(/^model call #2 at \d+ ms carried turns queued-2, queued-3; its result at \d+ ms was paired with queued-2; no terminal event for queued-3 followed$/);
    expect(merged?.message).not.toMatch(/turn-timeout|raise/);
    expect(merged?.kitBound).toBeUndefined();
    // The evidence: the result that answered the merged request, the unanswered line, the request.
    expect(merged?.evidence?.map((e) => e.stream)).toEqual(["stdout", "stdin", "process"]);
    expect(merged?.evidence?.[1]?.excerpt).toContain("turn=queued-3");
  });

  it("reports the merge once: terminal-in-order, whose order held, does not repeat it", () => {
    const order = clause(run, "agent-cli/turns/terminal-in-order");
    expect(order.status).toBe("pass");
    expect(order.judged).toBe(2);
    expect(failing(run)).toEqual(["agent-cli/turns/one-terminal-per-turn"]);
  });

  it("compares the merged turn's text with the request that carried it", () => {
    expect(clause(run, "agent-cli/fidelity/streamed-text")).toMatchObject({ status: "pass", judged: 2 });
  });
});

describe("Qwen Code 0.24.4, queued scenario: three queued lines answered 2, 3, 1", () => {
  const run = recorded("qwen-code-0.24.4_queued.jsonl");

  it("pairs each result with the line whose reply it carries", () => {
    const [view] = viewProcesses(run.transcripts[0] as AgentRun["transcripts"][number]);
    const results = (view?.inputs ?? []).map((input) => input.terminals.map((t) => String(t.object?.result).slice(0, 20)));
    expect(results).toEqual([["awp-conformance fixt"], ["Second answer."], ["Third answer."]]);
    expect((view?.inputs ?? []).map((input) => input.pairedByContent === true)).toEqual([false, true, true]);
  });

  it("fails terminal-in-order once, on the first line, with its own result and the one that overtook it", () => {
    const order = clause(run, "agent-cli/turns/terminal-in-order");
    expect(order.status).toBe("fail");
    expect(order.findings).toHaveLength(1);
    const [finding] = order.findings;
    expect(finding?.message).toBe("answered out of order: the model received turn queued-2's request before this turn's, and queued-2's terminal event came first (the kit paired each terminal event with the line whose reply it carries)");
    expect(finding?.evidence?.[0]?.excerpt).toContain("awp-conformance fixture text 0001");
    expect(finding?.evidence?.[1]?.excerpt).toContain('"result":"Second answer."');
    expect(JSON.stringify(finding)).not.toMatch(/"result":"Third answer\."[^]*queued-1|attributed/);
  });

  it("answers every line once, and the texts match: only the order fails", () => {
    expect(clause(run, "agent-cli/turns/one-terminal-per-turn")).toMatchObject({ status: "pass", judged: 3 });
    expect(clause(run, "agent-cli/fidelity/result-text").status).toBe("pass");
    expect(failing(run)).toEqual(["agent-cli/turns/terminal-in-order"]);
  });
});

/**
 * One stated bound per clause: every time an agent-cli or host clause mentions ("500 ms", "3 s")
 * is a bound its check (or the scenario that feeds it) exports, and every exported bound is stated.
 * docs/clauses.md is generated from the same YAML, so it says the same.
 */
import { describe, expect, it } from "vitest";
import { FAILURE_BOUNDS } from "../../../src/core/agent-cli/checks/failures.js";
import type { AgentRun } from "../../../src/core/agent-cli/checks/helpers.js";
import { MANAGED_BOUNDS } from "../../../src/core/agent-cli/checks/managed-tasks-results.js";
import { SILENCE_BOUNDS } from "../../../src/core/agent-cli/checks/output.js";
import { TERMINATION_BOUNDS, terminationChecks } from "../../../src/core/agent-cli/checks/termination.js";
import { TURNS_BOUNDS } from "../../../src/core/agent-cli/checks/turns.js";
import { loadCatalogue } from "../../../src/core/clauses/catalogue.js";
import { HOST_BOUNDS } from "../../../src/core/host/helpers.js";
import type { TranscriptEvent } from "../../../src/core/agent-cli/types.js";

const BOUNDS: Readonly<Record<string, readonly number[]>> = { ...FAILURE_BOUNDS, ...SILENCE_BOUNDS, ...TERMINATION_BOUNDS, ...MANAGED_BOUNDS, ...TURNS_BOUNDS, ...HOST_BOUNDS };
const DURATION = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|seconds?)\b/g;

/** Every duration a text mentions, in ms. */
function durations(text: string): number[] {
  return [...text.matchAll(DURATION)].map((m) => Number(m[1]) * (m[2]?.startsWith("m") === true ? 1 : 1000));
}

const clauses = [...loadCatalogue("agent-cli"), ...loadCatalogue("host")];

describe("agent-cli and host clauses state the bounds their checks use", () => {
  it("finds durations however they are written", () => {
    expect(durations("within 500 ms, 3 s or 1.5 seconds; not 4 MiB, HTTP 500 or retry-after 0")).toEqual([500, 3000, 1500]);
  });

  it.each(clauses.map((c) => [c.id, c] as const))("%s: every time it mentions is its check's bound", (id, clause) => {
    const mentioned = durations(`${clause.title}\n${clause.text}`);
    const bounds = BOUNDS[id] ?? [];
    for (const ms of mentioned) expect(bounds, `${id} mentions ${ms} ms`).toContain(ms);
    const title = durations(clause.title);
    if (title.length > 0) expect(title).toEqual([bounds[0]]);
  });

  it.each(Object.entries(BOUNDS))("%s: every bound its check exports is stated in the clause", (id, bounds) => {
    const clause = clauses.find((c) => c.id === id);
    expect(clause, id).toBeDefined();
    const mentioned = durations(`${clause?.title ?? ""}\n${clause?.text ?? ""}`);
    for (const ms of bounds) expect(mentioned, `${id} should state ${ms} ms`).toContain(ms);
  });
});

describe("the termination checks use exactly the bound they state", () => {
  const trigger: Record<string, { scenario: string; event: TranscriptEvent }> = {
    "agent-cli/termination/shutdown-line": { scenario: "shutdown", event: { kind: "send", t: 1000, process: 1, line: '{"type":"shutdown"}' } },
    "agent-cli/termination/sigterm-idle": { scenario: "sigterm-idle", event: { kind: "action", t: 1000, process: 1, action: "sigterm" } },
    "agent-cli/termination/sigterm-mid-turn": { scenario: "sigterm-mid-turn", event: { kind: "action", t: 1000, process: 1, action: "sigterm" } },
  };
  const runWithExitAfter = (id: string, ms: number): AgentRun => {
    const { scenario, event } = trigger[id] as { scenario: string; event: TranscriptEvent };
    const events: TranscriptEvent[] = [
      { kind: "launch", t: 0, process: 1, argv: ["cli"], cwd: "/w", envNames: [] },
      event,
      { kind: "exit", t: 1000 + ms, process: 1, code: 0, signal: null, killedByKit: false },
    ];
    return { mode: "awp-jsonl", transcripts: [{ scenario, mode: "awp-jsonl", events }], turnTimeoutMs: 30_000, offline: true };
  };

  it.each(Object.entries(TERMINATION_BOUNDS))("%s: an exit at the bound passes, one 10 ms later fails", (id, bounds) => {
    const check = terminationChecks.find((c) => c.clause === id);
    const bound = bounds[0] as number;
    expect(check?.judge(runWithExitAfter(id, bound))).toEqual({ outcome: "judged", judged: 1, findings: [] });
    const late = check?.judge(runWithExitAfter(id, bound + 10));
    expect(late?.outcome === "judged" ? late.findings.map((f) => f.expected) : []).toEqual([`exit within ${bound} ms`]);
  });
});

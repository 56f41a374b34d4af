import { describe, expect, it } from "vitest";
import { judgeAgentRun } from "../../src/core/agent-cli/judge.js";
import { NO_PROC_REASON } from "../../src/core/leftovers.js";
import type { Leftover, LeftoverSweep } from "../../src/core/process-outcome.js";
import { judgeProviderTranscript } from "../../src/core/provider/judge.js";
import { buildReport } from "../../src/core/report/build.js";
import type { ProviderExchange, ProviderTranscript } from "../../src/core/provider/types.js";
import { runOf, Script } from "./agent-cli/transcripts.js";

/** The two no-leftover-processes clauses, on synthetic transcripts. */

const daemon: Leftover = {
  pid: 4242,
  command: "/usr/bin/node -e setTimeout(() => {}, 600000) awp-leftover-daemon",
  foundBy: ["marker", "pipe"],
  holds: [{ stream: "stdout", link: "socket:[77]" }],
  ended: "SIGKILL",
};
const NONE: LeftoverSweep = { scan: "proc", found: [] };

describe("provider/transport/no-leftover-processes", () => {
  const encoder = new TextEncoder();
  let seq = 0;
  const exchange = (leftovers: LeftoverSweep | undefined, spawnError = false): ProviderExchange => ({
    seq: ++seq,
    scenario: "describe",
    purpose: "describe",
    method: "describe",
    requestId: `d-${seq}`,
    request: encoder.encode("{}"),
    timeoutMs: 6000,
    outcome: {
      exitCode: 0, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false, durationMs: 5, stdoutBytes: 0, stderrBytes: 0, killedByKit: false,
      ...(spawnError ? { spawnError: { code: "ENOENT", message: "x" } } : {}), ...(leftovers ? { leftovers } : {}),
    },
    stdout: new Uint8Array(),
    stderr: new Uint8Array(),
  });
  const judge = (exchanges: ProviderExchange[]) => {
    const t: ProviderTranscript = { argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [], notes: [] }, exchanges };
    return judgeProviderTranscript(t).results.find((r) => r.id === "provider/transport/no-leftover-processes");
  };

  it("passes when every look found nothing, and counts each call", () => {
    expect(judge([exchange(NONE), exchange(NONE)])).toMatchObject({ status: "pass", judged: 2, level: "SHOULD" });
  });

  it("fails with one finding per leftover: pid, command line, how it was found and ended", () => {
    const result = judge([exchange(NONE), exchange({ scan: "proc", found: [daemon], dropped: 3 })]);
    expect(result?.status).toBe("fail");
    expect(result?.findings).toHaveLength(2);
    const [first, more] = result?.findings ?? [];
    expect(first?.message).toContain("pid 4242");
    expect(first?.message).toContain("the launch marker AWP_CONFORMANCE_LAUNCH in its environment and by the launch's stdout pipe (socket:[77])");
    expect(first?.seen).toContain(daemon.command);
    expect(first?.seen).toContain("SIGKILL");
    expect(first?.evidence?.length).toBeGreaterThan(0);
    expect(more?.message).toMatch(/^3 more processes/);
  });

  it("shows a leftover's command line redacted like every other text of the report", () => {
    const secret = "sk-live-0123456789abcdef";
    const results = judgeProviderTranscript({
      argv: ["p"], context: { config: {}, configGiven: true, invalidConfigsGiven: 0, secrets: [secret], notes: [] },
      exchanges: [exchange({ scan: "proc", found: [{ ...daemon, command: `/opt/agentd --token ${secret}` }] })],
    }).results;
    const report = buildReport({ protocol: "provider", argv: ["p"], startedAt: new Date(), endedAt: new Date(), options: {}, selection: { clause: [], skip: [] }, results, deselected: 0, notes: [], secrets: [secret] });
    const text = JSON.stringify(report);
    expect(text).not.toContain(secret);
    expect(text).toContain("/opt/agentd --token [REDACTED]");
  });

  it("is skipped, saying why, without /proc or without any record", () => {
    expect(judge([exchange({ scan: "unavailable", found: [] })])).toMatchObject({ status: "skip", reason: NO_PROC_REASON });
    expect(judge([exchange(undefined)])?.reason).toMatch(/live run/);
    expect(judge([exchange(undefined, true)])?.reason).toMatch(/executable file/);
  });
});

describe("agent-cli/termination/no-leftover-processes", () => {
  const judge = (...scripts: Script[]) => judgeAgentRun(runOf(...scripts)).results.find((r) => r.id === "agent-cli/termination/no-leftover-processes");

  it("passes when the looks after every launch found nothing", () => {
    const basic = new Script("basic").launch().exit(0).leftovers(NONE).launch().exit(0).leftovers(NONE);
    expect(judge(basic)).toMatchObject({ status: "pass", judged: 2, level: "SHOULD" });
  });

  it("fails once per leftover, naming the scenario, with the exit and the look as evidence", () => {
    const basic = new Script("basic").launch().exit(0).leftovers(NONE);
    const resume = new Script("resume").launch().exit(0, true).leftovers({ scan: "proc", found: [daemon, { ...daemon, pid: 4243, foundBy: ["marker"], holds: [], ended: "SIGTERM" }] });
    const result = judge(basic, resume);
    expect(result?.status).toBe("fail");
    expect(result?.findings.map((f) => f.scenario)).toEqual(["resume (awp-jsonl)", "resume (awp-jsonl)"]);
    expect(result?.findings[1]?.message).toContain("pid 4243, found by the launch marker AWP_CONFORMANCE_LAUNCH in its environment");
    expect(result?.findings[0]?.evidence?.map((e) => e.excerpt)).toEqual([expect.stringMatching(/^exit 0/), expect.stringContaining("pid 4242")]);
  });

  it("is skipped without /proc, and for recordings without looks", () => {
    // (A turn served, so the run-level "exited at start" cause does not replace the reason.)
    const served = (): Script => new Script("basic").launch().user("hi").success("hello").exit(0);
    expect(judge(served().leftovers({ scan: "unavailable", found: [] }))).toMatchObject({ status: "skip", reason: NO_PROC_REASON });
    const offline = judgeAgentRun({ ...runOf(served()), offline: true }).results.find((r) => r.id === "agent-cli/termination/no-leftover-processes");
    expect(offline?.reason).toMatch(/recorded transcripts hold no leftovers events/);
  });
});

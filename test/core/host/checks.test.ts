import { describe, expect, it } from "vitest";
import { hostClauses } from "../../../src/core/host/judge.js";
import { AGENT_CLI_EXPECT, AGENT_CLI_RECORD, AGENT_CLI_RECORD_CASES, PROVIDER_EXPECT, PROVIDER_RECORD, PROVIDER_RECORD_CASES, type RecordCase, type RecordLine } from "./launch-record-cases.js";
import { REACTION_RECORD_CASES } from "./reaction-record-cases.js";
import { judgeLines, readRecord } from "./records.js";

/** The reaction clauses have a passing record of their own (reactions.test.ts). */
const REACTIONS = "host/agent-cli-reactions/";

const BASE = {
  "agent-cli": { file: AGENT_CLI_RECORD, expect: AGENT_CLI_EXPECT },
  provider: { file: PROVIDER_RECORD, expect: PROVIDER_EXPECT },
} as const;
const CASES: readonly RecordCase[] = [...AGENT_CLI_RECORD_CASES, ...PROVIDER_RECORD_CASES];

describe("the passing launch records", () => {
  it.each(["agent-cli", "provider"] as const)("%s: every clause of that host passes with the configuration given", (protocol) => {
    const { file, expect: configured } = BASE[protocol];
    const judged = judgeLines(readRecord(file), protocol, configured);
    const launchClauses = (id: string): boolean => !id.startsWith(REACTIONS);
    expect(judged.results.filter((r) => launchClauses(r.id)).map((r) => [r.id, r.status])).toEqual(hostClauses(protocol).filter((c) => launchClauses(c.id)).map((c) => [c.id, "pass"]));
    expect(judged.halted).toBeUndefined();
  });

  it.each(["agent-cli", "provider"] as const)("%s: without any configuration, the shape is judged and a note names what was not compared", (protocol) => {
    const judged = judgeLines(readRecord(BASE[protocol].file), protocol, { remoteOptIn: false });
    expect(judged.notes.join("\n")).toContain("--expect-args-json");
    if (protocol === "provider") {
      expect(judged.failing).toEqual([]);
      return;
    }
    // The configured entries are unknown: they show as names beyond the allowlist, with the option that tells the kit about them.
    expect(judged.failing).toEqual(["host/launch/env-allowlist"]);
    const finding = judged.results.find((r) => r.id === "host/launch/env-allowlist")?.findings[0];
    expect(finding?.message).toContain("give --expect-env-json");
    expect(finding?.seen).toBe("ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL");
    expect(judged.status("host/launch/env-configured")).toBe("not-applicable");
  });
});

describe("each broken host's record fails exactly its clauses", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const { file, expect: configured } = BASE[c.protocol];
    const judged = judgeLines(c.mutate(readRecord(file)), c.protocol, { ...configured, ...c.expect });
    expect(judged.failing).toEqual([...c.fails].sort());
    expect(judged.halted).toBeUndefined();
    // Nothing else became unjudgeable: the other clauses still pass (or do not arise).
    expect(judged.results.filter((r) => r.status === "skip" && !r.id.startsWith(REACTIONS)).map((r) => r.id)).toEqual([]);
  });

  it("covers every host clause", () => {
    const proven = new Set([...CASES, ...REACTION_RECORD_CASES].flatMap((c) => c.fails));
    const clauses = [...hostClauses("agent-cli"), ...hostClauses("provider")].map((c) => c.id);
    expect(clauses.filter((id) => !proven.has(id))).toEqual([]);
  });
});

describe("the timed host clauses use exactly the bound they state", () => {
  const grace = 3000;
  const slack = 1000;

  it("kill-after-grace: a last sign of life at SIGTERM + grace + slack passes, 10 ms later fails; --shutdown-grace and --slack move it", () => {
    const lastAliveAt = (ms: number): RecordLine[] => {
      const lines = readRecord(AGENT_CLI_RECORD);
      const sigterm = lines.find((l) => l.pid === 4201 && l.event === "signal")!;
      const alive = lines.filter((l) => l.pid === 4201 && l.event === "alive");
      alive[alive.length - 1]!.at = (sigterm.at ?? 0) + ms;
      return lines;
    };
    const status = (ms: number, bounds = { shutdownGraceMs: grace, slackMs: slack }): string | undefined => judgeLines(lastAliveAt(ms), "agent-cli", AGENT_CLI_EXPECT, bounds).status("host/shutdown/kill-after-grace");
    expect(status(grace + slack)).toBe("pass");
    expect(status(grace + slack + 10)).toBe("fail");
    expect(status(500, { shutdownGraceMs: 300, slackMs: 200 })).toBe("pass");
    expect(status(510, { shutdownGraceMs: 300, slackMs: 200 })).toBe("fail");
  });

  it("deadline-enforced: an exit at budget_ms + slack after the start passes, 10 ms later fails", () => {
    const exitAfter = (ms: number): RecordLine[] => {
      const lines = readRecord(PROVIDER_RECORD);
      const start = lines.find((l) => l.pid === 5003 && l.event === "launch")!.at ?? 0;
      lines.find((l) => l.pid === 5003 && l.event === "exit")!.at = start + ms;
      return lines;
    };
    expect(judgeLines(exitAfter(500 + slack), "provider", PROVIDER_EXPECT).status("host/provider/deadline-enforced")).toBe("pass");
    expect(judgeLines(exitAfter(500 + slack + 10), "provider", PROVIDER_EXPECT).status("host/provider/deadline-enforced")).toBe("fail");
  });

  it("deadline-enforced skips, saying what to change, when every budgeted call was killed silently", () => {
    const lines = readRecord(PROVIDER_RECORD).filter((l) => !(l.pid === 5003 && (l.event === "signal" || l.event === "exit")));
    const judged = judgeLines(lines, "provider", PROVIDER_EXPECT);
    expect(judged.results.find((r) => r.id === "host/provider/deadline-enforced")).toMatchObject({ status: "skip", reason: expect.stringContaining("--fault slow-invoke:ms=N") });
  });

  it("deadline-enforced judges a SIGKILL at the deadline (aw's way) by the mock's heartbeats: the last one near budget_ms passes, beats long past it fail", () => {
    const killed = readRecord(PROVIDER_RECORD).filter((l) => !(l.pid === 5003 && (l.event === "signal" || l.event === "exit")));
    const beats = (untilMs: number): typeof killed => {
      const request = killed.find((l) => l.pid === 5003 && l.event === "request");
      const at = (request?.at as number) ?? 0;
      return Array.from({ length: Math.floor(untilMs / 100) }, (_, i) => ({ v: 1, protocol: "provider", pid: 5003, at: at + 100 * (i + 1), event: "alive" }));
    };
    const status = (lines: typeof killed): string | undefined => judgeLines(lines, "provider", PROVIDER_EXPECT).results.find((r) => r.id === "host/provider/deadline-enforced")?.status;
    expect(status([...killed, ...beats(500)])).toBe("pass");
    expect(status([...killed, ...beats(2500)])).toBe("fail");
  });
});

describe("clauses that do not arise say how to make them arise", () => {
  it("a host that never shut the CLI down, never resumed and used no MCP", () => {
    const lines = readRecord(AGENT_CLI_RECORD).filter((l) => l.pid === 4201 && l.event !== "signal" && l.event !== "alive");
    lines.push({ v: 1, protocol: "agent-cli", pid: 4201, at: 9e12, event: "exit", code: 0, reason: "stdin-ended" });
    const { resume: _resume, ...notResumed } = AGENT_CLI_EXPECT;
    const judged = judgeLines(lines, "agent-cli", notResumed);
    const reason = (id: string): string | undefined => judged.results.find((r) => r.id === id)?.reason;
    expect(judged.failing).toEqual([]);
    expect(reason("host/shutdown/sigterm-first")).toMatch(/no shutdown: close the conversation in the host/);
    expect(reason("host/shutdown/kill-after-grace")).toMatch(/launch the mock with --fault ignore-sigterm \(AWP_CONFORMANCE_MOCK_FAULTS=ignore-sigterm\) and shut the conversation down/);
    expect(reason("host/launch/resume-form")).toMatch(/give --expect-resume ID/);
    expect(reason("host/launch/mcp-config-pair")).toMatch(/configure MCP endpoints/);
  });

  it("a CLI that left on the Windows shutdown line before any signal: sigterm-first says to add ignore-shutdown", () => {
    const lines = readRecord(AGENT_CLI_RECORD).filter((l) => l.pid === 4201 && l.event !== "signal" && l.event !== "alive");
    const shutdown = '{"type":"shutdown"}';
    lines.push({ v: 1, protocol: "agent-cli", pid: 4201, at: 9e12, event: "stdin-line", index: 2, bytes: shutdown.length, sha256: "0".repeat(64), text: shutdown, truncated: false, json: { type: "shutdown" } });
    lines.push({ v: 1, protocol: "agent-cli", pid: 4201, at: 9e12 + 5, event: "exit", code: 0, reason: "done" });
    const judged = judgeLines(lines, "agent-cli", AGENT_CLI_EXPECT);
    expect(judged.results.find((r) => r.id === "host/shutdown/sigterm-first")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("add --fault ignore-shutdown") });
  });

  it("a secret-looking entry is compared but its values are never shown", () => {
    const lines = readRecord(AGENT_CLI_RECORD);
    for (const line of lines) if (line.event === "launch") (line.env as Record<string, string>).ANTHROPIC_API_KEY = "sk-live-leaked-value";
    const judged = judgeLines(lines, "agent-cli", AGENT_CLI_EXPECT);
    expect(judged.failing).toEqual(["host/launch/env-configured"]);
    const text = JSON.stringify(judged.results);
    expect(text).toContain("ANTHROPIC_API_KEY has another value than configured (values not shown)");
    expect(text).not.toContain("sk-live-leaked-value");
    expect(text).not.toContain(AGENT_CLI_EXPECT.env!.ANTHROPIC_API_KEY);
  });

  it("--expect-resume with no resumed launch fails resume-form", () => {
    const lines = readRecord(AGENT_CLI_RECORD).filter((l) => l.pid === 4201);
    expect(judgeLines(lines, "agent-cli", AGENT_CLI_EXPECT).failing).toEqual(["host/launch/resume-form"]);
  });
});

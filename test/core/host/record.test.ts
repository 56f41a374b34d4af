import { describe, expect, it } from "vitest";
import { KitError } from "../../../src/core/errors.js";
import { splitLaunchArgs } from "../../../src/core/host/argv.js";
import { recordProtocol } from "../../../src/core/host/judge.js";
import { parseLaunchRecord } from "../../../src/core/host/record.js";
import { AGENT_CLI_EXPECT, AGENT_CLI_RECORD, PROVIDER_EXPECT, PROVIDER_RECORD } from "./launch-record-cases.js";
import { judgeLines, readRecord, toJsonl } from "./records.js";

const agent = readRecord(AGENT_CLI_RECORD);
const text = (lines: readonly unknown[]): string => toJsonl(lines).toString();

describe("parseLaunchRecord", () => {
  it("groups events by pid under their launch line, in file order", () => {
    const record = parseLaunchRecord(toJsonl(agent));
    expect(record.issues).toEqual([]);
    expect(record.processes.map((p) => [p.pid, p.launch.line, p.events.map((e) => e.event)])).toEqual([
      [4201, 1, ["stdin-line", "stdin-line", "signal", "alive", "alive", "alive"]],
      [4305, 8, ["stdin-line", "signal", "exit"]],
    ]);
  });

  it("starts a new process when a pid is launched again", () => {
    const again = { ...agent[0]!, at: (agent[0]!.at ?? 0) + 9000 };
    const record = parseLaunchRecord(toJsonl([...agent, again, { ...agent[1]!, at: again.at + 1 }]));
    expect(record.processes.map((p) => [p.pid, p.events.length])).toEqual([[4201, 6], [4305, 3], [4201, 1]]);
  });

  it("never throws on content: malformed lines, blank lines, schema misses and orphans become issues with their line", () => {
    const bad = `${text(agent.slice(0, 2))}not json\n\n{"event":"launch","v":1}\n{"v":1,"protocol":"agent-cli","pid":77,"at":5,"event":"alive"}\n[1,2]\n{"a":1,"a":2}\n`;
    const record = parseLaunchRecord(Buffer.from(bad));
    expect(record.issues.map((i) => i.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(record.issues[0]!.message).toMatch(/^not valid JSON/);
    expect(record.issues[1]!.message).toBe("a blank line");
    expect(record.issues[2]!.message).toMatch(/schemas\/launch-record\.schema\.json/);
    expect(record.issues[3]!.message).toBe("an event of pid 77 before any launch line of that pid");
    expect(record.issues[5]!.message).toMatch(/duplicate/i);
    expect(record.processes).toHaveLength(1);
  });

  it("stops at record-full and at an unterminated last line", () => {
    const full = parseLaunchRecord(Buffer.from(`${text(agent.slice(0, 2))}{"event":"record-full"}\n${text(agent.slice(2))}`));
    expect(full.issues).toEqual([{ line: 3, message: expect.stringContaining("record-full") }]);
    expect(full.processes[0]!.events).toHaveLength(1);
    const cut = parseLaunchRecord(Buffer.from(`${text(agent.slice(0, 2))}{"v":1,"protoc`));
    expect(cut.issues).toEqual([{ line: 3, message: "an unterminated last line (the writer was stopped mid-line)" }]);
  });

  it("keeps a lone surrogate the writer's 4096-character cut can leave", () => {
    const line = { ...agent[1]!, text: "\ud83d", truncated: true };
    const record = parseLaunchRecord(Buffer.from(`${text(agent.slice(0, 1))}${JSON.stringify(line)}\n`));
    expect(record.issues).toEqual([]);
  });
});

describe("the judge on records it cannot trust", () => {
  it("an empty record skips every clause with what to do, so it is never conformant", () => {
    const judged = judgeLines([], "agent-cli", AGENT_CLI_EXPECT);
    expect(new Set(judged.results.map((r) => r.status))).toEqual(new Set(["skip"]));
    expect(judged.halted).toMatch(/holds no agent-cli process: point the host at the mock \(awp-conformance-mock-agent-cli\) with AWP_CONFORMANCE_MOCK_RECORD=FILE/);
  });

  it("an incomplete record keeps its failures and skips the rest", () => {
    const broken = readRecord(AGENT_CLI_RECORD);
    (broken[0]!.parent as { comm: string }).comm = "bash";
    const judged = judgeLines(Buffer.from(`${text(broken)}garbage\n`), "agent-cli", AGENT_CLI_EXPECT);
    expect(judged.failing).toEqual(["host/launch/no-shell"]);
    expect(judged.results.filter((r) => r.status === "pass")).toEqual([]);
    expect(judged.halted).toMatch(/^the record is incomplete \(line 12: not valid JSON/);
  });

  it("a record of both kinds of host needs --protocol; one kind is found by itself", () => {
    const both = parseLaunchRecord(toJsonl([...agent, ...readRecord(PROVIDER_RECORD)]));
    expect(() => recordProtocol(both)).toThrow(KitError);
    expect(recordProtocol(both, "provider")).toBe("provider");
    expect(recordProtocol(parseLaunchRecord(toJsonl(readRecord(PROVIDER_RECORD))))).toBe("provider");
    const judged = judgeLines([...agent, ...readRecord(PROVIDER_RECORD)], "provider", PROVIDER_EXPECT);
    expect(judged.failing).toEqual([]);
    expect(judged.notes[0]).toBe("judged 3 provider processes of the record; 2 of the other protocol left out (--protocol)");
  });
});

describe("splitLaunchArgs", () => {
  it.each([
    [["--model", "m"], { head: [], model: "m" }],
    [["p", "--model", "m", "--resume", "r"], { head: ["p"], model: "m", resume: "r" }],
    [["--model", "m", "--mcp-config", "c"], { head: [], model: "m", mcpConfig: "c" }],
    [["--model", "m", "--resume", "r", "--mcp-config", "c"], { head: [], model: "m", resume: "r", mcpConfig: "c" }],
    // A prefix argument that is --model stays in the head.
    [["--model", "p", "--model", "m"], { head: ["--model", "p"], model: "m" }],
    [["--model", "m", "--resume", "--mcp-config"], { head: [], model: "m", resume: "--mcp-config" }],
    // Structure only: a flag in the head is argv-order's to judge.
    [["--resume", "r", "--model", "m"], { head: ["--resume", "r"], model: "m" }],
  ])("%j splits", (args, split) => {
    expect(splitLaunchArgs(args)).toEqual(split);
  });

  it.each([[[]], [["--model"]], [["--model", "m", "x"]], [["--model", "m", "--mcp-config", "c", "--resume", "r"]], [["--model", "m", "--resume", "a", "--resume", "b"]]])("%j does not", (args) => {
    expect(splitLaunchArgs(args)).toBeUndefined();
  });
});

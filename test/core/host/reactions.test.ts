import { describe, expect, it } from "vitest";
import { conversationsOf } from "../../../src/core/host/conversations.js";
import { AGENT_CLI_CATALOGUE } from "../../../src/mocks/catalogue/agent-cli.js";
import { hostClauses } from "../../../src/core/host/judge.js";
import { parseLaunchRecord } from "../../../src/core/host/record.js";
import type { RecordLine } from "./launch-record-cases.js";
import { HUGE, LOGS, MID, REACTION_RECORD_CASES, REACTIONS_RECORD, RESUMED, START } from "./reaction-record-cases.js";
import { DEFAULT_BOUNDS, judgeLines, readRecord, toJsonl } from "./records.js";

const AREA = "host/agent-cli-reactions/";
const reactionIds = hostClauses("agent-cli").filter((c) => c.id.startsWith(AREA)).map((c) => c.id);
const judge = (lines: RecordLine[], bounds = DEFAULT_BOUNDS): ReturnType<typeof judgeLines> => judgeLines(lines, "agent-cli", { remoteOptIn: false }, bounds);
const result = (lines: RecordLine[], id: string, bounds = DEFAULT_BOUNDS): { status?: string; reason?: string } => judge(lines, bounds).results.find((r) => r.id === `${AREA}${id}`) ?? {};

describe("the passing record of a host that reacts well", () => {
  it("passes every reaction clause, and fails nothing else", () => {
    const judged = judge(readRecord(REACTIONS_RECORD));
    expect(reactionIds.length).toBe(6);
    expect(reactionIds.map((id) => [id, judged.status(id)])).toEqual(reactionIds.map((id) => [id, "pass"]));
    expect(judged.failing).toEqual([]);
  });

  it("ties processes into conversations by the session ids they resumed or were given", () => {
    const record = parseLaunchRecord(toJsonl(readRecord(REACTIONS_RECORD)));
    expect(conversationsOf(record.processes).map((c) => c.map((p) => p.pid))).toEqual([[HUGE], [LOGS], [MID, RESUMED], [START]]);
  });
});

describe("the mock catalogue names the reaction clauses", () => {
  it("every clause a fault says judges the host's reaction exists, and each reaction that needs a fault has one", () => {
    const named = AGENT_CLI_CATALOGUE.flatMap((f) => f.hostClauses ?? []);
    expect(named.filter((id) => !reactionIds.includes(id))).toEqual([]);
    // One process per conversation and the shutdown need no fault: any resumed conversation, any host that quits.
    const needFault = reactionIds.filter((id) => !id.endsWith("/one-process-per-conversation") && !id.endsWith("/shutdown-stops-every-cli"));
    expect(needFault.filter((id) => !named.includes(id))).toEqual([]);
  });
});

describe("each wrong host's record fails exactly its clause", () => {
  it.each(REACTION_RECORD_CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const judged = judge(c.mutate(readRecord(REACTIONS_RECORD)));
    expect(judged.failing).toEqual([...c.fails].sort());
    expect(judged.halted).toBeUndefined();
    expect(reactionIds.filter((id) => judged.status(id) === "skip")).toEqual([]);
  });

  it("covers every reaction clause", () => {
    const proven = new Set(REACTION_RECORD_CASES.flatMap((c) => c.fails));
    expect(reactionIds.filter((id) => !proven.has(id))).toEqual([]);
  });
});

describe("the reaction clauses use exactly the bounds they state", () => {
  it("oversize-stops-cli: SIGTERM 2000 ms after the run began passes, 2010 ms fails; --oversize-stop moves it", () => {
    const signalAfter = (ms: number): RecordLine[] => {
      const lines = readRecord(REACTIONS_RECORD);
      const fault = lines.find((l) => l.pid === HUGE && l.event === "fault")!;
      for (const l of lines) if (l.pid === HUGE && (l.event === "signal" || l.event === "exit")) l.at = (fault.at ?? 0) + ms + (l.event === "exit" ? 1 : 0);
      return lines;
    };
    expect(result(signalAfter(2000), "oversize-stops-cli").status).toBe("pass");
    expect(result(signalAfter(2010), "oversize-stops-cli").status).toBe("fail");
    expect(result(signalAfter(2010), "oversize-stops-cli", { ...DEFAULT_BOUNDS, oversizeStopMs: 2500 }).status).toBe("pass");
  });

  it("shutdown-stops-every-cli: a signal read 1000 ms after host-gone still counts (both arrive together), 1010 ms does not; --slack moves it", () => {
    // The LOGS CLI's host quits without a signal; then a signal is read that long after host-gone.
    const signalAfterGone = (ms: number): RecordLine[] => {
      const lines = REACTION_RECORD_CASES.find((c) => c.name === "quit-leaves-cli-running")!.mutate(readRecord(REACTIONS_RECORD));
      const gone = lines.find((l) => l.pid === LOGS && l.event === "host-gone")!;
      const signal: RecordLine = { v: 1, protocol: "agent-cli", pid: LOGS, at: (gone.at ?? 0) + ms, event: "signal", name: "SIGTERM", action: "ignored" };
      return [...lines.slice(0, lines.indexOf(gone) + 1), signal, ...lines.slice(lines.indexOf(gone) + 1)];
    };
    expect(result(signalAfterGone(0), "shutdown-stops-every-cli").status).toBe("pass");
    expect(result(signalAfterGone(1000), "shutdown-stops-every-cli").status).toBe("pass");
    expect(result(signalAfterGone(1010), "shutdown-stops-every-cli").status).toBe("fail");
    expect(result(signalAfterGone(1010), "shutdown-stops-every-cli", { ...DEFAULT_BOUNDS, slackMs: 1500 }).status).toBe("pass");
  });

  it("no-start-retry-loop: a start 5000 ms after the failure counts as starting it again, 5010 ms does not; --start-retries moves the limit", () => {
    const retries = (gap: number): RecordLine[] => {
      const lines = readRecord(REACTIONS_RECORD);
      const own = lines.filter((l) => l.pid === START);
      const span = (own[own.length - 1]!.at ?? 0) - (own[0]!.at ?? 0);
      const copies = [1, 2, 3].flatMap((n) => own.map((l) => ({ ...structuredClone(l), pid: START + n, at: (l.at ?? 0) + n * (span + gap) })));
      return [...lines, ...copies];
    };
    expect(result(retries(5000), "no-start-retry-loop").status).toBe("fail");
    expect(result(retries(5010), "no-start-retry-loop").status).toBe("pass");
    expect(result(retries(5000), "no-start-retry-loop", { ...DEFAULT_BOUNDS, startRetries: 3 }).status).toBe("pass");
  });
});

describe("reaction clauses that cannot be judged say why and what to do", () => {
  const without = (pids: readonly number[]): RecordLine[] => readRecord(REACTIONS_RECORD).filter((l) => !pids.includes(l.pid ?? 0));

  it("a record without the faults: each clause is not applicable and names the fault to give", () => {
    const lines = without([HUGE, LOGS, MID, START]);
    expect(result(lines, "oversize-stops-cli")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("--fault huge-line:turn=1") });
    expect(result(lines, "bad-output-session-goes-on")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("log-on-stdout") });
    expect(result(lines, "one-process-per-conversation")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("resume a conversation") });
    expect(result(lines, "no-replay-after-failure")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("--fault exit-mid-turn") });
    expect(result(lines, "no-start-retry-loop")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("--fault exit-at-start") });
    expect(result([], "shutdown-stops-every-cli").status).toBe("skip");
  });

  it("huge-line given but its turn never came: not applicable, saying so", () => {
    const lines = without([LOGS, MID, RESUMED, START]).filter((l) => l.event !== "fault");
    expect(result(lines, "oversize-stops-cli")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("never wrote its run past 4 MiB") });
  });

  it("a fault fired but no turn followed it: the record cannot tell, so the clause skips", () => {
    // The log-on-stdout CLI without its second turn.
    const logOnly = without([HUGE, MID, RESUMED, START]).filter((l) => l.input !== 1 && !(l.event === "stdin-line" && l.index === 1));
    expect(result(logOnly, "bad-output-session-goes-on")).toMatchObject({ status: "skip", reason: expect.stringContaining("cannot tell") });
    const failedLast = without([HUGE, LOGS, RESUMED, START]);
    expect(result(failedLast, "no-replay-after-failure")).toMatchObject({ status: "skip", reason: expect.stringContaining("cannot tell") });
  });

  it("a CLI past 4 MiB killed outright within the bound is left to sigterm-first, and a late one still fails", () => {
    const killed = without([LOGS, MID, RESUMED, START]).filter((l) => !(l.pid === HUGE && (l.event === "signal" || l.event === "exit")));
    expect(result(killed, "oversize-stops-cli").status).toBe("skip");
    expect(judge(killed).failing).toEqual(["host/shutdown/sigterm-first"]);
    const fault = killed.find((l) => l.event === "fault")!;
    killed.push({ v: 1, protocol: "agent-cli", pid: HUGE, at: (fault.at ?? 0) + 2500, event: "alive" });
    expect(result(killed, "oversize-stops-cli").status).toBe("fail");
  });
});

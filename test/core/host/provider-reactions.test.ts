/**
 * The provider host reactions (suites/host/provider-reactions.yaml) beyond the one-change cases of
 * launch-record-cases.ts: what each says when it cannot judge, and the bound it states.
 */
import { describe, expect, it } from "vitest";
import { PROVIDER_EXPECT, PROVIDER_RECORD, type RecordLine } from "./launch-record-cases.js";
import { judgeLines, readRecord } from "./records.js";

const R = "host/provider-reactions";
const INVOKE = 5003;

function result(lines: RecordLine[], expect = PROVIDER_EXPECT, slackMs = 1000): (id: string) => { status?: string; reason?: string; judged?: number } {
  const judged = judgeLines(lines, "provider", expect, { shutdownGraceMs: 3000, slackMs });
  return (id) => judged.results.find((r) => r.id === id) ?? {};
}

/** The passing record with one more invoke process after the killed one. */
function withSecondStep(startAfterDeadline: number, request: Partial<RecordLine> = {}): RecordLine[] {
  const lines = readRecord(PROVIDER_RECORD);
  const launch = lines.find((l) => l.pid === INVOKE && l.event === "launch")!;
  const first = lines.find((l) => l.pid === INVOKE && l.event === "request")!;
  const deadline = (first.at ?? 0) + 500;
  const at = deadline + startAfterDeadline;
  const base = { v: 1, protocol: "provider", pid: 5006 };
  return [
    ...lines,
    { ...launch, pid: 5006, at },
    { ...first, ...base, at: at + 20, id: "invoke-2", operation: "record", ...request },
    { ...base, at: at + 30, event: "answer", status: "ok", effects: [], exitCode: null, failures: [] },
    { ...base, at: at + 40, event: "exit", code: 0, reason: "done" },
  ];
}

describe("provider host reactions", () => {
  it("without the host's configuration: what the mock cannot see is not applicable or skipped, each saying which option tells the kit", () => {
    const status = result(readRecord(PROVIDER_RECORD), { remoteOptIn: false });
    expect(status(`${R}/disabled-not-started`)).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("give --expect-providers-json") });
    expect(status(`${R}/failure-not-block`)).toMatchObject({ status: "skip", reason: expect.stringContaining("give --host-outcomes FILE") });
    expect(status("host/provider/configured-cwd")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("--expect-cwd DIR") });
    expect(status("host/provider/configured-env")).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("--expect-env-json") });
    // What the record shows is judged all the same: the providers invoked were prepared, the failed call not repeated.
    expect(status(`${R}/prepared-before-invoke`)).toMatchObject({ status: "pass", judged: 1 });
    expect(status(`${R}/no-retry-after-failure`)).toMatchObject({ status: "pass", judged: 1 });
  });

  it("a record of a mock that wrote no answer lines cannot tell a failure: the clauses that need one skip, never pass", () => {
    const status = result(readRecord(PROVIDER_RECORD).filter((l) => l.event !== "answer"));
    for (const id of ["one-process-per-claim", "no-retry-after-failure", "failure-not-block"]) {
      expect(status(`${R}/${id}`), id).toMatchObject({ status: "skip", reason: expect.stringContaining("record the host again with this version's mock") });
    }
  });

  it("no failed invoke: the failure reactions are not applicable and name faults that make one", () => {
    const lines = readRecord(PROVIDER_RECORD).filter((l) => !(l.pid === INVOKE && (l.event === "signal" || l.event === "exit")));
    lines.push({ v: 1, protocol: "provider", pid: INVOKE, at: 1764633600700, event: "answer", status: "ok", effects: [], exitCode: null, failures: [] });
    lines.push({ v: 1, protocol: "provider", pid: INVOKE, at: 1764633600710, event: "exit", code: 0, reason: "done" });
    const status = result(lines);
    for (const id of ["no-retry-after-failure", "failure-not-block"]) expect(status(`${R}/${id}`), id).toMatchObject({ status: "not-applicable", reason: expect.stringContaining("wrong-digest") });
  });

  it("a fault that also broke the preparation: the reactions that need an invoke say the host rightly stopped, and which faults fire on invoke only", () => {
    const lines = readRecord(PROVIDER_RECORD)
      .filter((l) => l.pid !== INVOKE)
      .map((l) => (l.pid === 5001 && l.event === "answer" ? { ...l, failures: ["wrong-request-id"] } : l));
    const status = result(lines);
    for (const id of ["prepared-before-invoke", "spawn-before-deadline", "one-process-per-claim", "no-retry-after-failure", "failure-not-block"]) {
      expect(status(`${R}/${id}`), id).toMatchObject({ status: "not-applicable", reason: expect.stringMatching(/preparation failed \(describe of provider "strict": the fault wrong-request-id made the answer a failure\).*fires on invoke only/) });
    }
  });

  it("spawn-before-deadline: a step started at the event's deadline + slack passes, 10 ms later fails; --slack moves it", () => {
    const status = (after: number, slack = 1000): string | undefined => result(withSecondStep(after), PROVIDER_EXPECT, slack)(`${R}/spawn-before-deadline`).status;
    expect(status(1000)).toBe("pass");
    expect(status(1010)).toBe("fail");
    expect(status(200, 200)).toBe("pass");
    expect(status(210, 200)).toBe("fail");
  });

  it("events without a call id are told apart by request_id only: equal content under a new request_id is not a repeat", () => {
    const noCallId = { toolEvent: { name: "tool.before", callId: null, sha256: "9".repeat(64) }, operation: "check" };
    const lines = readRecord(PROVIDER_RECORD).map((l) => (l.pid === INVOKE && l.event === "request" ? { ...l, ...noCallId } : l));
    expect(result(withSecondStep(-300, { ...noCallId }).map((l) => (l.pid === INVOKE && l.event === "request" ? { ...l, ...noCallId } : l)))(`${R}/no-retry-after-failure`).status).toBe("pass");
    expect(result(withSecondStep(-300, { ...noCallId, id: "invoke-1" }).map((l) => (l.pid === INVOKE && l.event === "request" ? { ...l, ...noCallId } : l)))(`${R}/no-retry-after-failure`).status).toBe("fail");
    expect(result(lines)(`${R}/spawn-before-deadline`).status).toBe("pass");
  });
});

describe("literal-argv without the host's configuration", () => {
  const twoProviders = (): RecordLine[] =>
    readRecord(PROVIDER_RECORD).map((l) => (l.pid === INVOKE && l.event === "launch" ? { ...l, mockArgs: ["--policy", "other"], argv: [(l.argv as string[])[0], "--policy", "other"] } : l));

  it("several argument lists (several providers?) skip, asking for --expect-providers-json; with it, they pass", () => {
    const { args: _args, providers: _providers, ...rest } = PROVIDER_EXPECT;
    expect(result(twoProviders(), rest)("host/provider/literal-argv")).toMatchObject({ status: "skip", reason: expect.stringContaining("give --expect-providers-json") });
    const configured = { ...PROVIDER_EXPECT, providers: { ...PROVIDER_EXPECT.providers, other: { args: ["--policy", "other"], enabled: true } } };
    expect(result(twoProviders(), configured)("host/provider/literal-argv")).toMatchObject({ status: "pass", judged: 3 });
  });

  it("a call that got its own method as an argument still fails", () => {
    const lines = readRecord(PROVIDER_RECORD).map((l) => (l.pid === INVOKE && l.event === "launch" ? { ...l, mockArgs: [...(l.mockArgs as string[]), "invoke"], argv: [...(l.argv as string[]), "invoke"] } : l));
    const { args: _args, providers: _providers, ...rest } = PROVIDER_EXPECT;
    expect(result(lines, rest)("host/provider/literal-argv")).toMatchObject({ status: "fail" });
  });
});

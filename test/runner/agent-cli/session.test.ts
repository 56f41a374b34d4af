import { afterEach, describe, expect, it } from "vitest";
import { liveGroupIds } from "../../../src/runner/process-group.js";
import { jsonOf, startArgv, startFixture, stopAll } from "./session-harness.js";

afterEach(async () => {
  const pids = await stopAll();
  for (const pid of pids) expect(liveGroupIds()).not.toContain(pid);
});

describe("LiveSession: conversation", () => {
  it("drives an echo agent over several turns and records everything in order", async () => {
    const { session, events, kinds } = await startFixture("echo-agent.mjs");
    const ready = await session.waitForLine((l) => jsonOf(l.json).type === "ready", { from: 0, timeoutMs: 3000, label: "ready" });
    expect(ready?.index).toBe(0);
    for (const n of [1, 2, 3]) {
      expect(session.send(JSON.stringify({ turn: n }))).toBe(true);
      const reply = await session.waitForLine((l) => jsonOf(l.json).seq === n, { timeoutMs: 3000, label: `reply ${n}` });
      expect(reply?.json).toEqual({ type: "reply", seq: n, echo: { turn: n } });
      expect(reply?.text).toBe(JSON.stringify({ type: "reply", seq: n, echo: { turn: n } }));
    }
    session.closeStdin();
    const exit = await session.waitExit(3000);
    expect(exit).toMatchObject({ code: 0, signal: null, killedByKit: false });
    expect(session.lines.map((l) => jsonOf(l.json).type)).toEqual(["ready", "reply", "reply", "reply", "bye"]);
    expect(kinds()).toEqual([
      "launch", "stdout", "send", "stdout", "send", "stdout", "send", "stdout", "action:close-stdin", "stdout", "exit",
    ]);
    // The kit's launch marker is its one addition to the environment it was given.
    expect(events[0]).toMatchObject({ kind: "launch", process: 1, envNames: ["AWP_CONFORMANCE_LAUNCH", "LANG", "PATH"] });
    expect(events[2]).toMatchObject({ kind: "send", line: '{"turn":1}' });
    const times = events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events.every((e) => e.process === 1)).toBe(true);
    expect(await session.stop()).toBe(exit);
    expect(kinds()).not.toContain("action:stop");
    // Once the exit is settled: the look for leftovers, which found none.
    expect(events.at(-1)).toMatchObject({ kind: "leftovers", process: 1, scan: "proc", found: [] });
  });

  it("shows output written before any input", async () => {
    const { session } = await startFixture("echo-agent.mjs");
    await session.waitQuiet(300);
    expect(jsonOf(session.lines[0]?.json).type).toBe("ready");
    // from: 0 finds the line that is already there.
    expect(await session.waitForLine(() => true, { from: 0, timeoutMs: 10, label: "first" })).toBe(session.lines[0]);
  });

  it("a waitForLine timeout is recorded and does not hang; stop() then ends the process", async () => {
    const { session, events, kinds } = await startFixture("hang.mjs");
    await session.waitForLine((l) => l.text === "ready", { from: 0, timeoutMs: 3000, label: "ready" });
    session.send("hello?");
    const began = performance.now();
    expect(await session.waitForLine(() => true, { timeoutMs: 150, label: "an answer" })).toBeUndefined();
    expect(performance.now() - began).toBeLessThan(3000);
    expect(events.at(-1)).toMatchObject({ kind: "timeout", waitingFor: "an answer", afterMs: 150 });
    expect(await session.waitExit(50)).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ kind: "timeout", waitingFor: "exit", afterMs: 50 });
    const exit = await session.stop();
    expect(exit).toMatchObject({ code: null, signal: "SIGTERM", killedByKit: true });
    expect(kinds().slice(-3)).toEqual(["action:stop", "exit", "leftovers"]);
  });

  it("settles pending waits at exit and refuses sends afterwards", async () => {
    const { session, events } = await startFixture("echo-agent.mjs");
    const waiting = session.waitForLine((l) => l.text === "never", { timeoutMs: 5000, label: "never" });
    const quiet = session.waitQuiet(5000);
    const began = performance.now();
    session.send(JSON.stringify({ exit: 4 }));
    expect(await waiting).toBeUndefined();
    await quiet;
    expect(performance.now() - began).toBeLessThan(5000);
    expect(session.exit).toMatchObject({ code: 4, killedByKit: false });
    expect(session.send("late")).toBe(false);
    expect(events.at(-1)).toMatchObject({ kind: "note" });
    expect(events.some((e) => e.kind === "timeout")).toBe(false);
    expect(await session.waitForLine(() => true, { timeoutMs: 5000, label: "after exit" })).toBeUndefined();
  });

  it("records EPIPE on stdin as a note and then refuses sends", async () => {
    const { session, events } = await startFixture("no-stdin.mjs");
    await session.waitForLine((l) => l.text === "closed", { from: 0, timeoutMs: 3000, label: "closed" });
    expect(session.send("x".repeat(200_000))).toBe(true);
    await session.waitQuiet(200);
    expect(events.some((e) => e.kind === "note" && e.text.includes("EPIPE"))).toBe(true);
    expect(session.send("again")).toBe(false);
    expect(session.exit).toBeUndefined();
  });

  it("a spawn failure gives a session that has already exited", async () => {
    const { session, kinds, events } = await startArgv(["/definitely/missing/agent"]);
    expect(session.exit).toMatchObject({ code: null, signal: null, killedByKit: false });
    expect(session.pid).toBeUndefined();
    expect(kinds()).toEqual(["launch", "note", "exit"]);
    expect(events[1]).toMatchObject({ kind: "note", text: expect.stringContaining("ENOENT") });
    expect(session.send("hi")).toBe(false);
    expect(await session.waitForLine(() => true, { timeoutMs: 5000, label: "x" })).toBeUndefined();
    expect(await session.waitExit(5000)).toBe(session.exit);
    expect(await session.stop()).toBe(session.exit);
    session.signal("SIGTERM");
    expect(kinds().filter((k) => k === "exit")).toHaveLength(1);
  });

  it("closeStdin makes an agent that exits on EOF exit", async () => {
    const { session } = await startFixture("echo-agent.mjs");
    session.closeStdin();
    expect(await session.waitExit(3000)).toMatchObject({ code: 0, killedByKit: false });
    expect(session.lines.at(-1)?.json).toEqual({ type: "bye", seq: 0 });
  });
});

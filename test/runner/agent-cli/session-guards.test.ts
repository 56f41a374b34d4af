import { afterEach, describe, expect, it } from "vitest";
import type { StdoutEvent } from "../../../src/core/agent-cli/types.js";
import { liveGroupIds } from "../../../src/runner/process-group.js";
import { OutputBudget } from "../../../src/runner/agent-cli/output-budget.js";
import { fileURLToPath } from "node:url";
import { deadWithin, isDead, jsonOf, startArgv, startFixture, stopAll } from "./session-harness.js";

const LEAVE_DAEMON = fileURLToPath(new URL("../../fixtures/processes/leave-daemon.mjs", import.meta.url));

afterEach(async () => {
  const pids = await stopAll();
  for (const pid of pids) expect(liveGroupIds()).not.toContain(pid);
});

const MiB = 1024 * 1024;

describe("LiveSession: guards and framing", () => {
  it("a 5 MiB line without a newline trips the oversize guard and the kit stops the runtime", async () => {
    const { session, events, kinds } = await startFixture("flood-no-newline.mjs", ["5"]);
    const exit = await session.waitExit(5000);
    expect(exit).toMatchObject({ code: null, signal: "SIGTERM", killedByKit: true });
    const oversize = events.filter((e): e is StdoutEvent => e.kind === "stdout");
    expect(oversize).toHaveLength(1);
    expect(oversize[0]).toMatchObject({ oversize: true, line: "x".repeat(4096) });
    expect(oversize[0]?.bytes).toBeGreaterThan(4 * MiB);
    expect(session.lines).toEqual([]);
    expect(kinds()).toEqual(["launch", "stdout", "action:stop", "exit"]);
  });

  it("keeps CR, replaces invalid UTF-8, keeps a BOM, and records an unterminated last line as partial", async () => {
    const { session, events } = await startFixture("framing.mjs");
    expect(await session.waitExit(3000)).toMatchObject({ code: 3, signal: null, killedByKit: false });
    expect(session.lines.map((l) => l.text)).toEqual(['{"a":1}\r', "plain", "bad\uFFFD", "\uFEFFbom", ""]);
    expect(session.lines[0]?.json).toEqual({ a: 1 });
    expect(session.lines.slice(1).every((l) => l.json === undefined)).toBe(true);
    expect(events.slice(-2)).toMatchObject([
      { kind: "stdout", line: "tail-without-newline", partial: true },
      { kind: "exit", code: 3 },
    ]);
  });

  it("records stderr up to its cap, notes the truncation once, and keeps draining", async () => {
    const { session, events } = await startFixture("stderr-flood.mjs", ["256"], { stderrCap: 10_000 });
    expect(await session.waitExit(5000)).toMatchObject({ code: 0, killedByKit: false });
    const stderr = events.flatMap((e) => (e.kind === "stderr" ? [e.text] : []));
    expect(stderr.join("")).toHaveLength(10_000);
    expect(events.filter((e) => e.kind === "note")).toMatchObject([{ text: "stderr truncated" }]);
    expect(session.lines.map((l) => l.text)).toEqual(["done"]);
  });

  it("stops recording stdout past maxStdoutBytes and stops the runtime", async () => {
    const { session, events } = await startFixture("flood-no-newline.mjs", ["2"], { maxStdoutBytes: MiB });
    expect(await session.waitExit(5000)).toMatchObject({ killedByKit: true });
    expect(events.filter((e) => e.kind === "note")).toMatchObject([{ text: expect.stringContaining(`${MiB} bytes`) }]);
    expect(events.some((e) => e.kind === "stdout")).toBe(false);
  });

  it("stops recording past maxLines", async () => {
    const { session, events } = await startFixture("framing.mjs", [], { maxLines: 2 });
    await session.waitExit(3000);
    expect(session.lines).toHaveLength(2);
    expect(events.filter((e) => e.kind === "note")).toMatchObject([{ text: expect.stringContaining("2 lines") }]);
  });

  it("shares the run's budget between sessions: the line that passes it trips the same guard in whichever session it comes", async () => {
    const budget = new OutputBudget({ maxBytes: MiB, maxLines: 3, maxValues: 1000 });
    const first = await startFixture("framing.mjs", [], { budget });
    await first.session.waitExit(3000);
    expect(first.session.lines.map((l) => l.text)).toEqual(['{"a":1}\r', "plain", "bad\uFFFD"]);
    const second = await startFixture("framing.mjs", [], { budget });
    await second.session.waitExit(3000);
    expect(second.session.lines).toEqual([]);
    for (const { events } of [first, second]) {
      expect(events.filter((e) => e.kind === "note")).toMatchObject([{ text: "stdout passed 3 lines, the run's budget for all its processes together (--output-budget): no longer recorded, runtime stopped" }]);
    }
    const bytes = await startFixture("framing.mjs", [], { budget: new OutputBudget({ maxBytes: 10, maxLines: 100, maxValues: 1000 }) });
    await bytes.session.waitExit(3000);
    expect(bytes.session.lines.map((l) => l.text)).toEqual(['{"a":1}\r']);
    expect(bytes.events.filter((e) => e.kind === "note")).toMatchObject([{ text: expect.stringContaining("stdout passed 10 bytes, the run's budget") }]);
    // {"a":1} is one value by the count (its brace); a budget of none stops the first line.
    const values = await startFixture("framing.mjs", [], { budget: new OutputBudget({ maxBytes: MiB, maxLines: 100, maxValues: 0 }) });
    await values.session.waitExit(3000);
    expect(values.session.lines).toEqual([]);
    expect(values.events.filter((e) => e.kind === "note")).toMatchObject([{ text: expect.stringContaining("stdout passed 0 JSON values, the run's budget") }]);
  });

  it("past the run's budget, an unterminated last line is kept cut to its head, with a note", async () => {
    const { session, events } = await startFixture("flood-no-newline.mjs", ["1"], { budget: new OutputBudget({ maxBytes: 1000, maxLines: 100, maxValues: 1000 }) });
    await session.waitQuiet(1000);
    await session.stop();
    const partial = events.filter((e): e is StdoutEvent => e.kind === "stdout");
    expect(partial).toMatchObject([{ partial: true, line: "x".repeat(4096) }]);
    expect(events.filter((e) => e.kind === "note")).toMatchObject([{ text: `the last stdout line (${MiB} bytes, no newline) is recorded cut to its first 4096: stdout passed 1000 bytes, the run's budget for all its processes together (--output-budget)` }]);
  });

  it("stop() SIGKILLs a child that ignores SIGTERM after the grace, once, and is idempotent", async () => {
    const { session, kinds } = await startFixture("ignore-term.mjs", [], { killGraceMs: 300 });
    await session.waitForLine((l) => l.text === "ready", { from: 0, timeoutMs: 3000, label: "ready" });
    const began = performance.now();
    const [first, second] = await Promise.all([session.stop(), session.stop()]);
    const elapsed = performance.now() - began;
    expect(first).toBe(second);
    expect(first).toMatchObject({ code: null, signal: "SIGKILL", killedByKit: true });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(5000);
    expect(kinds().filter((k) => k === "action:stop")).toHaveLength(1);
    expect(kinds().slice(-2)).toEqual(["exit", "leftovers"]);
  });

  it("signal(SIGTERM) is the host's ordinary termination, not killedByKit", async () => {
    const { session, events } = await startFixture("hang.mjs");
    await session.waitForLine((l) => l.text === "ready", { from: 0, timeoutMs: 3000, label: "ready" });
    session.signal("SIGTERM");
    const exit = await session.waitExit(3000);
    expect(exit?.killedByKit).toBe(false);
    expect(exit?.signal === "SIGTERM" || exit?.code !== null).toBe(true);
    expect(events.slice(-2)).toMatchObject([{ kind: "action", action: "sigterm" }, { kind: "exit" }]);
    expect(await session.stop()).toBe(exit);
  });

  it("a grandchild holding stdout and ignoring SIGTERM is gone after stop()", async () => {
    const { session, kinds, events } = await startFixture("grandchild.mjs", [], { killGraceMs: 300 });
    const line = await session.waitForLine((l) => jsonOf(l.json).grandchild !== undefined, { from: 0, timeoutMs: 3000, label: "pid" });
    const grandchild = jsonOf(line?.json).grandchild as number;
    expect(await deadWithin(grandchild, 0)).toBe(false);
    const exit = await session.stop();
    expect(exit.killedByKit).toBe(true);
    expect(await deadWithin(grandchild, 1000)).toBe(true);
    expect(liveGroupIds()).not.toContain(session.pid);
    // A grandchild in the process group is the group kill's, not a leftover.
    expect(kinds().slice(-2)).toEqual(["exit", "leftovers"]);
    expect(events.at(-1)).toMatchObject({ kind: "leftovers", scan: "proc", found: [] });
  });

  it("after stop(), the daemon a CLI left in a new session is ended and recorded as a leftover", async () => {
    const { session, events } = await startArgv([process.execPath, LEAVE_DAEMON, "close-all", "hang"], { killGraceMs: 300 });
    const line = await session.waitForLine((l) => /^\d+$/.test(l.text), { from: 0, timeoutMs: 3000, label: "pid" });
    const daemon = Number(line?.text);
    try {
      await session.stop();
      expect(events.at(-1)).toMatchObject({ kind: "leftovers", process: 1, scan: "proc", found: [{ pid: daemon, foundBy: ["marker"], holds: [], ended: "SIGTERM" }] });
      expect(isDead(daemon)).toBe(true);
    } finally {
      if (daemon > 1 && !isDead(daemon)) process.kill(daemon, "SIGKILL");
    }
  });
});

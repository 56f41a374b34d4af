import { describe, expect, it } from "vitest";
import { createObserver, parentGone } from "../../src/mocks/agent-cli/observe.js";
import type { Owed } from "../../src/mocks/agent-cli/state.js";
import type { MockRecorder } from "../../src/mocks/record.js";

/** A recorder that keeps the observer's notes. */
function notes(): { recorder: MockRecorder; seen: [string, Record<string, unknown>][] } {
  const seen: [string, Record<string, unknown>][] = [];
  const none = (): void => undefined;
  const recorder: MockRecorder = { stdinLine: none, stdinEnd: none, stdinData: none, request: none, answer: none, rejected: none, signal: none, alive: none, exit: none, note: (event, fields) => void seen.push([event, fields]) };
  return { recorder, seen };
}

const owed = (line: number | null): Owed => ({ kind: "user", tag: undefined, index: 1, lines: 0, line });
const stat = (state: string, flags: number): string => `4242 (node host) ${state} 1 4242 4242 0 -1 ${flags} 0 0 0 0`;

describe("what the agent-cli mock notes for judging a host's reactions", () => {
  it("tells a host that is exiting or gone from one that only closed stdin", () => {
    expect(parentGone(4242, 4242, () => stat("S", 0x400000))).toBe(false);
    expect(parentGone(4242, 1, () => stat("S", 0))).toBe(true);
    expect(parentGone(4242, 4242, () => stat("Z", 0))).toBe(true);
    expect(parentGone(4242, 4242, () => stat("R", 0x400004))).toBe(true);
    expect(parentGone(4242, 4242, () => null)).toBe(true);
  });

  it("notes each session id once, the terminal event of an answered line, and a fault once per turn", () => {
    const { recorder, seen } = notes();
    const observer = createObserver(recorder);
    const init = JSON.stringify({ type: "system", subtype: "init", session_id: "s-1" });
    observer.output(`${init}\nnot json\n`, owed(0), false);
    observer.output(`${JSON.stringify({ type: "result", subtype: "error", is_error: true, session_id: "s-1" })}\n`, owed(0), true);
    observer.output(`${JSON.stringify({ type: "message_stop" })}\n`, owed(2), true);
    // A result line that does not answer the owed line (a second one of a turn) is not its terminal event.
    observer.output(`${JSON.stringify({ type: "result", is_error: false })}\n`, owed(3), false);
    observer.fired("log-on-stdout", owed(0));
    observer.fired("log-on-stdout", owed(0));
    observer.fired("huge-line", owed(2), { bytes: 5 });
    observer.whenFlushed("huge-line", owed(2));
    for (const fn of observer.takeFlushed()) fn();
    expect(observer.takeFlushed()).toEqual([]);
    expect(seen).toEqual([
      ["session", { id: "s-1" }],
      ["result", { input: 0, error: true }],
      ["result", { input: 2, error: false }],
      ["fault", { name: "log-on-stdout", input: 0 }],
      ["fault", { name: "huge-line", input: 2, bytes: 5 }],
      ["fault-flushed", { name: "huge-line", input: 2 }],
    ]);
  });
});

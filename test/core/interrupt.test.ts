import { afterEach, describe, expect, it } from "vitest";
import { handleInterrupts, interrupt, interrupted, interruptExitCode, interruptReason, onInterrupt, resetInterrupt } from "../../src/core/interrupt.js";
import { RunControl } from "../../src/runner/agent-cli/run-control.js";

afterEach(resetInterrupt);

describe("interruptions", () => {
  it("a command that does not handle them is not interrupted: the CLI exits at once", () => {
    const heard: string[] = [];
    onInterrupt((signal) => heard.push(signal));
    expect(interrupt("SIGINT")).toBe(false);
    expect(interrupted()).toBeUndefined();
    expect(heard).toEqual([]);
  });

  it("the first signal reaches every listener once; a second one is not an interruption again", () => {
    handleInterrupts();
    const heard: string[] = [];
    const off = onInterrupt((signal) => heard.push(`a ${signal}`));
    onInterrupt((signal) => heard.push(`b ${signal}`));
    const removed = onInterrupt((signal) => heard.push(`c ${signal}`));
    removed();
    expect(interrupt("SIGTERM")).toBe(true);
    expect(interrupt("SIGINT")).toBe(false);
    off();
    expect(heard).toEqual(["a SIGTERM", "b SIGTERM"]);
    expect(interrupted()).toBe("SIGTERM");
    // A listener that comes later hears it at once.
    onInterrupt((signal) => heard.push(`late ${signal}`));
    expect(heard.at(-1)).toBe("late SIGTERM");
    expect([interruptExitCode("SIGINT"), interruptExitCode("SIGTERM")]).toEqual([130, 143]);
    expect(interruptReason("SIGTERM", "after 3 calls")).toMatch(/^the kit was interrupted \(SIGTERM\) after 3 calls: /);
  });

  it("stops an agent-cli run: RunControl halts with the cause interrupted, and a later one stays halted", async () => {
    handleInterrupts();
    const control = new RunControl(60_000);
    expect(control.stopped).toBeUndefined();
    interrupt("SIGINT");
    expect(control.stopped).toBe("interrupted");
    await control.close();
    const later = new RunControl(60_000);
    expect(later.stopped).toBe("interrupted");
    await later.close();
  });
});

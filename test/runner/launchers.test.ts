import { describe, expect, it } from "vitest";
import { Launchers, type LauncherLike } from "../../src/runner/launcher/client.js";
import type { CallResult } from "../../src/runner/provider/call.js";

/** A stand-in launcher: calls stay pending until settled by hand. */
class FakeLauncher implements LauncherLike {
  readonly calls: string[] = [];
  /** The launcher pids each call was given. */
  readonly told: number[][] = [];
  private readonly open: (() => void)[] = [];
  closed = false;

  constructor(readonly pid: number) {}

  get pendingCalls(): number {
    return this.open.length;
  }

  call(argv: readonly string[], _request: Uint8Array, _options: unknown, launchers: readonly number[] = []): Promise<CallResult> {
    this.calls.push(argv.join(" "));
    this.told.push([...launchers]);
    return new Promise((resolve) => {
      const settle = (): void => resolve({ outcome: {} as CallResult["outcome"], stdout: new Uint8Array(), stderr: new Uint8Array() });
      this.open.push(settle);
    });
  }

  settleOne(): void {
    this.open.shift()?.();
  }

  close(): void {
    this.closed = true;
  }
}

function pool(max: number): { launchers: Launchers; started: FakeLauncher[] } {
  const started: FakeLauncher[] = [];
  const launchers = new Launchers(max, () => {
    const fake = new FakeLauncher(1000 + started.length);
    started.push(fake);
    return fake;
  });
  return { launchers, started };
}

const call = (launchers: Launchers, name: string): Promise<CallResult> => launchers.call([name], new Uint8Array(), { timeoutMs: 1000 });

describe("the launcher pool", () => {
  it("serial calls use one launcher, however many are allowed", async () => {
    const { launchers, started } = pool(4);
    for (const name of ["a", "b", "c"]) {
      const pending = call(launchers, name);
      started[0]?.settleOne();
      await pending;
    }
    expect(started.map((l) => l.calls)).toEqual([["a", "b", "c"]]);
  });

  it("calls in flight together go to launchers of their own, up to the bound, then to the least busy", () => {
    const { launchers, started } = pool(2);
    for (const name of ["a", "b", "c", "d"]) void call(launchers, name);
    expect(launchers.size).toBe(2);
    expect(started.map((l) => l.calls)).toEqual([["a", "c"], ["b", "d"]]);
    started[1]?.settleOne();
    void call(launchers, "e");
    expect(started.map((l) => l.calls)).toEqual([["a", "c"], ["b", "d", "e"]]);
  });

  it("tells each launcher, with every call, the pids of the launchers running (their children are the kit's launches)", () => {
    const { launchers, started } = pool(2);
    for (const name of ["a", "b", "c"]) void call(launchers, name);
    expect(started.map((l) => l.told)).toEqual([[[1000], [1000, 1001]], [[1000, 1001]]]);
  });

  it("warm starts launchers before any call, up to the count and the bound, and the calls then go to them", () => {
    const { launchers, started } = pool(3);
    launchers.warm(2);
    expect(launchers.size).toBe(2);
    launchers.warm(2);
    launchers.warm(1);
    expect(launchers.size).toBe(2);
    for (const name of ["a", "b"]) void call(launchers, name);
    expect(started.map((l) => l.calls)).toEqual([["a"], ["b"]]);
    launchers.warm(8);
    expect(launchers.size).toBe(3);
  });

  it("close lets every launcher go", () => {
    const { launchers, started } = pool(2);
    void call(launchers, "a");
    void call(launchers, "b");
    launchers.close();
    expect(started.map((l) => l.closed)).toEqual([true, true]);
    expect(launchers.size).toBe(0);
  });
});

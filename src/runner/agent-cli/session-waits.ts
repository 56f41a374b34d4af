/**
 * The bounded waits of a live session. Every wait owns one timer, cleared when it
 * settles; at exit every pending wait settles at once. A wait never rejects except
 * when the caller's own predicate throws.
 */
import type { Readable } from "node:stream";
import type { ExitInfo, StdoutLine } from "./session-types.js";
import { timerMs } from "./session-types.js";

interface Waiter {
  /** Line waits only: a candidate line settles the wait when this returns true. */
  match?: (line: StdoutLine) => boolean;
  from: number;
  onLine?: (line: StdoutLine) => void;
  onError?: (error: unknown) => void;
  onExit: (exit: ExitInfo) => void;
  timer?: NodeJS.Timeout;
}

/** Called when a wait runs out (the session records a timeout event). */
export type TimeoutRecorder = (label: string, afterMs: number) => void;

export class SessionWaits {
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly onTimeout: TimeoutRecorder) {}

  /** Pending waits (for tests and diagnostics). */
  get pending(): number {
    return this.waiters.size;
  }

  /** First line at index >= from matching predicate; existing lines are looked at first. */
  line(
    lines: readonly StdoutLine[],
    predicate: (line: StdoutLine) => boolean,
    from: number,
    timeoutMs: number,
    label: string,
  ): Promise<StdoutLine | undefined> {
    const delay = timerMs(timeoutMs, "timeoutMs");
    return new Promise<StdoutLine | undefined>((resolve, reject) => {
      for (let i = Math.max(0, from); i < lines.length; i++) {
        const line = lines[i] as StdoutLine;
        try {
          if (predicate(line)) return resolve(line);
        } catch (error) {
          return reject(error);
        }
      }
      const waiter: Waiter = {
        from,
        match: predicate,
        onLine: (line) => this.settle(waiter, () => resolve(line)),
        onError: (error) => this.settle(waiter, () => reject(error)),
        onExit: () => this.settle(waiter, () => resolve(undefined)),
      };
      this.arm(waiter, delay, label, timeoutMs, () => resolve(undefined));
    });
  }

  /** The exit, or undefined after timeoutMs (recorded as a timeout labelled `label`). */
  exit(timeoutMs: number, label: string): Promise<ExitInfo | undefined> {
    const delay = timerMs(timeoutMs, "timeoutMs");
    return new Promise<ExitInfo | undefined>((resolve) => {
      const waiter: Waiter = { from: Infinity, onExit: (exit) => this.settle(waiter, () => resolve(exit)) };
      this.arm(waiter, delay, label, timeoutMs, () => resolve(undefined));
    });
  }

  /** Registers a waiter whose timer records a timeout labelled `label` and then gives up. */
  private arm(waiter: Waiter, delay: number, label: string, timeoutMs: number, giveUp: () => void): void {
    waiter.timer = setTimeout(() => {
      this.settle(waiter, () => {
        this.onTimeout(label, timeoutMs);
        giveUp();
      });
    }, delay);
    this.waiters.add(waiter);
  }

  /** Resolves after ms, or at exit if that comes first; records nothing. */
  quiet(ms: number): Promise<void> {
    const delay = timerMs(ms, "ms");
    return new Promise<void>((resolve) => {
      const waiter: Waiter = { from: Infinity, onExit: () => this.settle(waiter, resolve) };
      waiter.timer = setTimeout(() => this.settle(waiter, resolve), delay);
      this.waiters.add(waiter);
    });
  }

  /** A new line was recorded. */
  lineAdded(line: StdoutLine): void {
    for (const waiter of [...this.waiters]) {
      if (!waiter.match || line.index < waiter.from) continue;
      let hit: boolean;
      try {
        hit = waiter.match(line);
      } catch (error) {
        // A throwing predicate rejects its own wait only.
        waiter.onError?.(error);
        continue;
      }
      if (hit) waiter.onLine?.(line);
    }
  }

  /** The exit was recorded: settle every pending wait. */
  exited(exit: ExitInfo): void {
    for (const waiter of [...this.waiters]) waiter.onExit(exit);
  }

  private settle(waiter: Waiter, action: () => void): void {
    if (!this.waiters.delete(waiter)) return;
    clearTimeout(waiter.timer);
    action();
  }
}

/** Resolves true if promise settles within ms, false otherwise; the timer is always cleared. */
export function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}

/** Resolves when a readable stream reached EOF, closed or failed. */
export function endOf(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = (): void => resolve();
    stream.once("end", done);
    stream.once("close", done);
    stream.once("error", done);
  });
}

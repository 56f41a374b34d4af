/**
 * What the mocks share: readers for the untyped JSON they bend (the reference's requests,
 * events and model bodies), a seeded random source, the reason the process is about to end
 * (for the launch record's `exit` line), stderr diagnostics, where the bundled reference
 * candidates are, and the signal handlers. One module, so a mock starts with few files.
 *
 * The mock owns its signal handlers. SIGTERM, SIGINT and SIGHUP reach one handler of ours;
 * listeners the wrapped reference registers for them (process.on / addListener / once) are
 * kept aside and called by that handler, unless a fault ignores the signal. A signal nobody
 * listens for ends the process as it would without any handler (the signal is raised again).
 * The launch record (when on) sees every signal and what came of it; the reaction is the
 * same whether recording is on or off.
 */

// ---- JSON

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value at a path of object keys, or undefined when any step is not an object. */
export function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObj(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A JSON text's object, or undefined (not JSON, or not an object). */
export function parseObject(text: string): Obj | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObj(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** One JSON line (with its newline). */
export const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise that never settles, with a live timer so the process stays up until it is killed. */
export function forever(): Promise<never> {
  return new Promise(() => setInterval(() => undefined, 1 << 30));
}

// ---- the process

export type ExitReason = "stdin-ended" | "signal" | "fault" | "not-killed" | "done";

let reason: ExitReason | undefined;

/** Notes why the process will end; the last cause noted before the exit is the one recorded. */
export function noteExit(why: ExitReason): void {
  reason = why;
}

export function exitReason(): ExitReason {
  return reason ?? "done";
}

/** A fault ends the process now. */
export function faultExit(code: number): never {
  noteExit("fault");
  process.exit(code);
}

let crashListener: (() => void) | undefined;

/** `listener` runs right before a crash fault kills the process (the launch record writes its exit line). */
export function onCrash(listener: () => void): void {
  crashListener = listener;
}

/** A crash fault: the process dies of SIGSEGV, as a program with a memory bug would. */
export function crashNow(): void {
  noteExit("fault");
  crashListener?.();
  process.kill(process.pid, "SIGSEGV");
}

/** One diagnostic line on stderr. */
export function say(message: string): void {
  process.stderr.write(`awp-conformance-mock: ${message}\n`);
}

/** Random numbers in [0, 1): mulberry32 from `seed`, so a seeded mock repeats itself. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` random bytes from a random source. */
export function randomBytesFrom(random: () => number, count: number): Buffer {
  const bytes = Buffer.alloc(count);
  for (let i = 0; i < count; i += 1) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

/** What every fault may use: the run's random source (seeded by --seed) and whether the kit launched the mock. */
export interface MockContext {
  random: () => number;
  /** The kit's launch marker is set: the kit runs this mock (kit-only selector defaults apply). */
  underKit: boolean;
}

/** A file of the bundled examples/, from a module in src/mocks/<dir>/ (the sources, under vitest) or dist/src/mocks/<dir>/ (built). */
export function exampleUrl(moduleUrl: string, path: string): string {
  return new URL(`${moduleUrl.endsWith(".ts") ? "../../../" : "../../../../"}examples/${path}`, moduleUrl).href;
}

export type SignalName = "SIGTERM" | "SIGINT" | "SIGHUP";

const NUMBERS: Readonly<Record<SignalName, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
const OWNED = Object.keys(NUMBERS) as SignalName[];

const isOwned = (event: string | symbol): event is SignalName => typeof event === "string" && (OWNED as string[]).includes(event);

/** What the launch recorder needs to hear about signals. */
export interface SignalRecorder {
  signal(name: SignalName, action: "exit" | "ignored"): void;
  /** Starts the `alive` heartbeat (a no-op when already running). */
  alive(): void;
  /** Writes the `exit` line now (the process is about to die of a signal, so no exit event follows). */
  exit(code: number, reason: "signal"): void;
}

type Listener = (...args: unknown[]) => void;

/**
 * Takes over the signal handlers. `ignoredBy(signal)` names the fault that ignores this
 * delivery (undefined: it is not ignored); `mayIgnoreSigterm` says whether any fault might.
 * Our handler for a signal is installed when it is needed and never before, so a mock
 * without a recorder or an ignoring fault has exactly the handlers the reference has: one for
 * each signal the reference listens to; with a recorder, one for each of the three.
 */
export function ownSignals(ignoredBy: (signal: SignalName) => string | undefined, recorder: SignalRecorder | undefined, mayIgnoreSigterm: boolean): void {
  const held: Record<SignalName, Listener[]> = { SIGTERM: [], SIGINT: [], SIGHUP: [] };
  const realOn = process.on;
  const installed = new Set<SignalName>();

  const handlerOf = (signal: SignalName): (() => void) => {
    const handler = (): void => {
      const fault = ignoredBy(signal);
      if (fault !== undefined) {
        say(`ignoring ${signal} (fault ${fault})`);
        recorder?.signal(signal, "ignored");
        recorder?.alive();
        return;
      }
      recorder?.signal(signal, "exit");
      noteExit("signal");
      const listeners = held[signal];
      if (listeners.length > 0) {
        for (const listener of listeners) listener.call(process, signal);
        return;
      }
      // Nobody listens: die of the signal, as the process would without our handler.
      recorder?.exit(128 + NUMBERS[signal], "signal");
      process.removeListener(signal, handler);
      process.kill(process.pid, signal);
    };
    return handler;
  };
  const install = (signal: SignalName): void => {
    if (installed.has(signal)) return;
    installed.add(signal);
    realOn.call(process, signal, handlerOf(signal));
  };

  const capture = function (this: NodeJS.Process, event: string | symbol, listener: Listener): NodeJS.Process {
    if (!isOwned(event)) return realOn.call(this, event, listener);
    held[event].push(listener);
    install(event);
    return this;
  };
  process.on = capture as typeof process.on;
  process.addListener = capture as typeof process.addListener;
  if (recorder !== undefined) for (const signal of OWNED) install(signal);
  else if (mayIgnoreSigterm) install("SIGTERM");
}

/**
 * The kit's side of the native spawner (native/spawner.c): one process, one pipe each way, any
 * number of calls in flight. A call here is what callInProcess makes of it (runner/process.ts):
 * the same executable resolution, launch marker, caps, deadline, kill, leftover sweep, and the
 * same ProcessOutcome, key for key; only the spawning, the waiting and the /proc look happen in
 * the spawner. While no call is pending the spawner does not keep the kit alive.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { LAUNCH_MARKER_ENV, type Leftover, type LeftoverSweep, type StdStream } from "../../core/process-outcome.js";
import { markedEnv, newMarker } from "../launch-start.js";
import { DEFAULT_KILL_GRACE_MS, STDIN_PREMATURE_CLOSE, copyProcessEnv, notStarted, validateOptions, type ProcessResult, type RunProcessOptions } from "../process.js";
import { validateSpawnOptions } from "../process-group.js";
import { commandText } from "../proc-read.js";
import { holdOpen, rejectAll, type Refable } from "../helper-process.js";
import { forgetResolutions, resolveExecutable } from "../resolve-exec.js";
import { callProcess, callResultOf, type CallOptions, type CallResult } from "../provider/call.js";
import { CALL_KIND, FrameReader, decodeResult, encodeCall, errnoName, signalName, type RawLeftover, type ResultFrame } from "./frames.js";

interface Pending {
  resolve: (result: ProcessResult) => void;
  reject: (error: Error) => void;
  file: string;
  resolved: string;
  env: Record<string, string>;
  cwd: string;
  requestBytes: number;
}

/** Calls the spawner runs at once (its MAX_CALLS). */
export const MAX_IN_FLIGHT = 256;

const STREAMS: readonly StdStream[] = ["stdin", "stdout", "stderr"];
const ENDED: readonly Leftover["ended"][] = ["SIGTERM", "SIGKILL", "exited", "survived"];

function leftoverOf(raw: RawLeftover, inodes: readonly number[]): Leftover {
  const foundBy: Leftover["foundBy"] = [...((raw.foundBy & 1) !== 0 ? (["marker"] as const) : []), ...((raw.foundBy & 2) !== 0 ? (["pipe"] as const) : [])];
  const holds = STREAMS.flatMap((stream, fd) => ((raw.holds >> fd) & 1 ? [{ stream, link: `socket:[${String(inodes[fd])}]` }] : []));
  return { pid: raw.pid, command: commandText(raw.cmdline, raw.comm), foundBy, holds, ended: ENDED[raw.ended] ?? "survived" };
}

function sweepOf(frame: ResultFrame): LeftoverSweep {
  if (!frame.procScan) return { scan: "unavailable", found: [] };
  const found = frame.leftovers.map((raw) => leftoverOf(raw, frame.inodes));
  return { scan: "proc", found, ...(frame.dropped > 0 ? { dropped: frame.dropped } : {}) };
}

/** A result frame as runProcess would have returned it. */
function resultOf(frame: ResultFrame, pending: Pending): ProcessResult {
  const outcome: ProcessResult = {
    exitCode: frame.signal !== 0 ? null : frame.exitCode,
    signal: frame.signal !== 0 ? signalName(frame.signal) : null,
    timedOut: frame.timedOut,
    stdoutCapped: frame.stdoutCapped,
    stderrCapped: frame.stderrCapped,
    durationMs: frame.durationMs,
    stdoutBytes: frame.stdoutBytes,
    stderrBytes: frame.stderrBytes,
    killedByKit: frame.killedByKit,
    leftovers: sweepOf(frame),
    stdout: frame.stdout,
    stderr: frame.stderr,
  };
  if (frame.stdinErrno !== 0) outcome.stdinError = errnoName(frame.stdinErrno);
  else if (!frame.stdinFinished && pending.requestBytes > 0) outcome.stdinError = STDIN_PREMATURE_CLOSE;
  return outcome;
}

export class NativeSpawner {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Calls the spawner has; past MAX_IN_FLIGHT, calls wait here in order until one comes back. */
  private inFlight = 0;
  private readonly held: (() => void)[] = [];
  private failure: Error | undefined;
  /** The spawner's environment: the kit's, as a candidate gets it; a call's marker is added to it. */
  private readonly baseEnv: Record<string, string>;

  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, null>, baseEnv: Record<string, string>) {
    this.baseEnv = baseEnv;
    const reader = new FrameReader((kind, id, body) => this.settle(kind, id, body));
    child.stdout.on("data", (chunk: Buffer) => reader.push(chunk));
    child.stdin.on("error", () => undefined);
    child.on("exit", (code, signal) => this.fail(new Error(`the native spawner ended (${signal ?? `exit code ${String(code)}`}) with ${this.pending.size} call(s) pending`)));
    child.on("error", (error) => this.fail(error));
    this.idle();
  }

  /** Starts the spawner binary (buildSpawner's). */
  static start(binary: string): NativeSpawner {
    const env = copyProcessEnv();
    const child = spawn(binary, [String(process.pid)], { stdio: ["pipe", "pipe", "inherit"], env });
    return new NativeSpawner(child, env);
  }

  get pendingCalls(): number {
    return this.pending.size;
  }

  get pid(): number | undefined {
    return this.failure === undefined ? this.child.pid : undefined;
  }

  /** One provider call, as callInProcess makes it. */
  call(argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> {
    return this.run(callProcess(argv, request, options)).then(callResultOf);
  }

  /** One process, as runProcess runs it (rejects only for invalid options, and when the spawner is gone). */
  run(options: RunProcessOptions): Promise<ProcessResult> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    try {
      validateOptions(options);
      // The spawner's own environment passed Node's check when it was started with it: only a call's own is checked.
      validateSpawnOptions({ argv: options.argv, env: options.env ?? {} });
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const env = options.env ?? this.baseEnv;
    const began = performance.now();
    const [file, ...args] = options.argv as [string, ...string[]];
    const cwd = path.resolve(options.cwd ?? process.cwd());
    const resolved = resolveExecutable(file, env, cwd);
    if (!resolved.ok) return Promise.resolve(notStarted(resolved.error, began));
    const marker = newMarker();
    const marked = markedEnv(options.env === undefined ? { [LAUNCH_MARKER_ENV]: env[LAUNCH_MARKER_ENV] ?? "" } : env, marker);
    const request = options.stdin ?? new Uint8Array(0);
    const id = this.nextId++;
    const frame = encodeCall({
      id, timeoutMs: options.timeoutMs, killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS, stdoutCap: options.stdoutCap, stderrCap: options.stderrCap,
      killOnStdoutCap: options.killOnStdoutCap ?? true, replaceEnv: options.env !== undefined, path: resolved.path, cwd, marker,
      argv: [file, ...args], env: Object.entries(marked).map(([k, v]) => `${k}=${v}`), stdin: request,
    });
    if (this.pending.size === 0) this.busy();
    const answer = new Promise<ProcessResult>((resolve, reject) => this.pending.set(id, { resolve, reject, file, resolved: resolved.path, env, cwd, requestBytes: request.byteLength }));
    const send = (): void => {
      this.inFlight++;
      for (const part of frame) this.child.stdin.write(part);
    };
    if (this.inFlight < MAX_IN_FLIGHT) send();
    else this.held.push(send);
    return answer;
  }

  /** Lets the spawner go: its stdin closes, it ends what it started and exits; the kit waits for that. */
  close(): void {
    this.child.stdin.end();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.ref();
  }

  private settle(kind: number, id: number, body: Buffer): void {
    const waiting = this.pending.get(id);
    if (kind !== CALL_KIND || waiting === undefined) return;
    this.pending.delete(id);
    this.inFlight--;
    this.held.shift()?.();
    if (this.pending.size === 0) this.idle();
    const frame = decodeResult(id, body);
    if (frame.spawnErrno === 0) {
      waiting.resolve(resultOf(frame, waiting));
      return;
    }
    // As the Node path does: the target may have changed since it was resolved; a fresh look says what is wrong, if it can.
    forgetResolutions();
    const again = resolveExecutable(waiting.file, waiting.env, waiting.cwd);
    const code = errnoName(frame.spawnErrno);
    const error = again.ok ? { code, message: `spawn ${waiting.resolved} ${code}` } : again.error;
    waiting.resolve({ ...notStarted(error, performance.now()), durationMs: frame.durationMs });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    rejectAll(this.pending, this.failure);
  }

  private busy(): void {
    holdOpen([this.child, this.child.stdout as Refable, this.child.stdin as Refable], true);
  }

  private idle(): void {
    holdOpen([this.child, this.child.stdout as Refable, this.child.stdin as Refable], false);
  }
}


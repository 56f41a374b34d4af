/**
 * One-shot runner for untrusted candidate programs: spawn without a shell in a
 * fresh process group, feed stdin, capture capped stdout/stderr, enforce a wall
 * clock, and always reap the whole group and whatever escaped it (leftovers.ts).
 * Whatever the child does is reported in the flat ProcessOutcome; the promise
 * rejects only for invalid options.
 */
import { performance } from "node:perf_hooks";
import { REPORT_AUDIT_ENV } from "./audit-env.js";
import { CappedBuffer } from "./capture.js";
import { MAX_TIMER_MS, finalizeGroup, spawnGroup, terminateGroup, type SpawnFailure } from "./process-group.js";
import type { ProcessOutcome } from "../core/process-outcome.js";

export interface RunProcessOptions {
  /** argv[0] = executable path; the rest are args. No shell. */
  argv: readonly string[];
  /** Bytes written then stdin closed; null/undefined = close stdin immediately. */
  stdin?: Uint8Array | null;
  cwd?: string;
  /** The child environment (default: a copy of process.env); the kit adds only its launch marker, LAUNCH_MARKER_ENV. */
  env?: Record<string, string>;
  /** Wall clock from spawn; on expiry: timedOut = true, terminate the group. */
  timeoutMs: number;
  /** Default 1000: SIGTERM → wait → SIGKILL. */
  killGraceMs?: number;
  /** Bytes kept. */
  stdoutCap: number;
  stderrCap: number;
  /** Default true: once stdout exceeds its cap, terminate the group at once. */
  killOnStdoutCap?: boolean;
}

export type { ProcessOutcome };

export interface ProcessResult extends ProcessOutcome {
  stdout: Buffer;
  stderr: Buffer;
}

export const DEFAULT_KILL_GRACE_MS = 1000;
/** How long to wait for stdout/stderr to close after the group was killed. */
export const PIPE_CLOSE_WAIT_MS = 200;
/** Recorded when stdin closed before all input was flushed and no error said why. */
export const STDIN_PREMATURE_CLOSE = "ERR_STREAM_PREMATURE_CLOSE";

/** What runProcess returns when the candidate could not be started (`began`: when it tried). */
export function notStarted(error: SpawnFailure, began: number): ProcessResult {
  return {
    exitCode: null, signal: null, timedOut: false, stdoutCapped: false, stderrCapped: false,
    durationMs: performance.now() - began, stdoutBytes: 0, stderrBytes: 0,
    killedByKit: false, spawnError: error, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0),
  };
}

export async function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  validateOptions(options);
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const killOnStdoutCap = options.killOnStdoutCap ?? true;
  const stdout = new CappedBuffer(options.stdoutCap);
  const stderr = new CappedBuffer(options.stderrCap);
  const env = options.env ?? copyProcessEnv();
  const began = performance.now();
  const spawned = await spawnGroup({ argv: options.argv, env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  if (!spawned.ok) return notStarted(spawned.error, began);
  const child = spawned.child;
  let timedOut = false;
  let killedByKit = false;
  const kill = (): void => {
    if (child.exitStatus()) return;
    killedByKit = true;
    void terminateGroup(child, killGraceMs);
  };

  child.stdout.on("data", (chunk: Buffer) => {
    stdout.push(chunk);
    if (killOnStdoutCap && stdout.capped) kill();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr.push(chunk);
  });
  child.stdout.resume();
  child.stderr.resume();

  let stdinError: string | undefined;
  let stdinFinished = false;
  const input = options.stdin ?? null;
  child.stdin.on("error", (error: Error) => {
    stdinError ??= errorLabel(error);
  });
  child.stdin.once("finish", () => {
    stdinFinished = true;
  });
  if (input !== null && input.byteLength > 0) child.stdin.end(input);
  else child.stdin.end();

  const timer = setTimeout(() => {
    if (child.exitStatus()) return;
    timedOut = true;
    kill();
  }, options.timeoutMs);

  const status = await child.exited;
  clearTimeout(timer);
  // The group, then whatever escaped it (leftovers.ts), with the same grace as the kit's own kill.
  const leftovers = await finalizeGroup(child, PIPE_CLOSE_WAIT_MS, killGraceMs);

  if (stdinError === undefined && !stdinFinished && input !== null && input.byteLength > 0) {
    stdinError = STDIN_PREMATURE_CLOSE;
  }
  const outcome: ProcessResult = {
    exitCode: status.exitCode,
    signal: status.signal,
    timedOut,
    stdoutCapped: stdout.capped,
    stderrCapped: stderr.capped,
    durationMs: status.endedAt - child.startedAt,
    stdoutBytes: stdout.totalBytes,
    stderrBytes: stderr.totalBytes,
    killedByKit,
    leftovers,
    stdout: stdout.toBuffer(),
    stderr: stderr.toBuffer(),
  };
  if (stdinError !== undefined) outcome.stdinError = stdinError;
  return outcome;
}

/** Throws for options no run takes (invalid argv, timeout, caps or stdin): the Node path and the native spawner alike. */
export function validateOptions(options: RunProcessOptions): void {
  if (!Array.isArray(options.argv) || options.argv.length === 0) throw new TypeError("argv must be a non-empty array");
  if (!isNonNegative(options.timeoutMs)) throw new RangeError("timeoutMs must be a number in [0, 2^31 - 1]");
  if (options.killGraceMs !== undefined && !isNonNegative(options.killGraceMs)) {
    throw new RangeError("killGraceMs must be a number in [0, 2^31 - 1]");
  }
  for (const cap of [options.stdoutCap, options.stderrCap]) {
    if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError("stdoutCap/stderrCap must be integers >= 0");
  }
  if (options.stdin != null && !(options.stdin instanceof Uint8Array)) throw new TypeError("stdin must be a Uint8Array");
}

function isNonNegative(value: number): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= MAX_TIMER_MS;
}

/** process.env as a plain object for a candidate (undefined entries and the kit's REPORT_AUDIT_ENV left out). */
export function copyProcessEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== REPORT_AUDIT_ENV) env[key] = value;
  }
  return env;
}

function errorLabel(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" ? code : error.message;
}

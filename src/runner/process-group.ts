/**
 * Process-group primitives shared by the one-shot runner and (later) interactive
 * sessions. Every child is spawned without a shell, as the leader of its own
 * session/process group (`detached: true` ⇒ setsid ⇒ pgid = pid), so the kit can
 * signal the child and everything it started with one `kill(-pgid, sig)`.
 *
 * Spawned with node:child_process directly, and nothing else on the way: the spawn is
 * synchronous on the event loop (fork + exec), so every launch's cost is the kit's too.
 * Callers own caps and timers.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Readable, Writable } from "node:stream";
import { LEFTOVERS_RECORDED, type LeftoverSweep } from "../core/process-outcome.js";
import { beginLaunch, markedEnv } from "./launch-start.js";
import { killLeftoversNow, sweepLeftovers, traceLaunch, type LaunchTrace } from "./leftovers.js";
import { forgetResolutions, resolveExecutable, type SpawnFailure } from "./resolve-exec.js";

/** argv[0] = executable (path, or bare name looked up in env.PATH); env = the child environment, to which the kit adds only its launch marker (LAUNCH_MARKER_ENV). */
export interface GroupSpawnOptions { argv: readonly string[]; cwd?: string; env: Record<string, string> }

export type { SpawnFailure };

/** endedAt = performance.now() when the exit was observed. */
export interface ExitStatus { exitCode: number | null; signal: string | null; endedAt: number }

export interface GroupChild {
  readonly pid: number; // leader pid = process-group id
  readonly stdin: Writable;
  readonly stdout: Readable; // handed over paused: attach listeners, then resume()
  readonly stderr: Readable; // idem
  readonly startedAt: number; // performance.now() just before spawning
  readonly launch: LaunchTrace; // the launch marker and stdio pipes, to find leftovers by
  readonly exited: Promise<ExitStatus>; // resolves when the leader has exited; never rejects
  exitStatus(): ExitStatus | null; // null while the leader runs
}

export type SpawnOutcome = { ok: true; child: GroupChild } | { ok: false; error: SpawnFailure };

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** SIGKILL every process group the kit still owns, and the leftovers of launches not swept yet. Safe to call any time. */
export function killAllGroups(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
  killLeftoversNow();
}

/**
 * Resolves once every one of the groups is gone (no process of it left, the leaders reaped by
 * this process's event loop while it waits), or after `ms`, whichever comes first.
 */
export async function groupsGone(pgids: readonly number[], ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  let left = pgids.filter((pgid) => signalGroup(pgid, 0));
  while (left.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, GONE_POLL_MS));
    left = left.filter((pgid) => signalGroup(pgid, 0));
  }
}

const GONE_POLL_MS = 10;

/** pgids currently registered (spawned and not yet released). */
export const liveGroupIds = (): number[] => [...liveGroups];

function registerGroup(pgid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", killAllGroups);
  }
  liveGroups.add(pgid);
}

/** SIGKILL what is left of the group and forget it. */
export function releaseGroup(pgid: number): void {
  signalGroup(pgid, "SIGKILL");
  liveGroups.delete(pgid);
}

/** Signal a whole process group (0 = probe). False if it is gone (ESRCH) or not ours to signal (EPERM). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`refusing to signal pgid ${pgid}`);
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === "ESRCH" || code === "EPERM") return false;
    throw error;
  }
}

/** Node timers overflow (and fire at once) beyond 2^31 - 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;
const terminations = new WeakMap<GroupChild, Promise<void>>();

/**
 * SIGTERM the group, then SIGKILL it if the leader has not exited after graceMs.
 * Resolves once the leader has exited. Concurrent calls share one termination.
 */
export function terminateGroup(child: GroupChild, graceMs: number): Promise<void> {
  const pending = terminations.get(child);
  if (pending) return pending;
  const run = async (): Promise<void> => {
    if (child.exitStatus()) return;
    signalGroup(child.pid, "SIGTERM");
    const timer = setTimeout(() => {
      if (!child.exitStatus()) signalGroup(child.pid, "SIGKILL");
    }, Math.min(Math.max(graceMs, 0), MAX_TIMER_MS));
    await child.exited;
    clearTimeout(timer);
  };
  const promise = run();
  terminations.set(child, promise);
  return promise;
}

/** SIGTERM → SIGKILL delay for leftovers when the caller gives none. */
const DEFAULT_LEFTOVER_GRACE_MS = 1000;

/**
 * After the leader exited: SIGKILL the rest of the group (grandchildren), release it, end
 * what escaped the group (leftovers.ts: SIGTERM, SIGKILL after graceMs), then give
 * stdout/stderr up to pipeWaitMs to close before destroying them. A pipe still open after
 * PIPE_HOLDER_MS has a holder the first look missed (started late): one more look.
 */
export async function finalizeGroup(child: GroupChild, pipeWaitMs: number, graceMs = DEFAULT_LEFTOVER_GRACE_MS): Promise<LeftoverSweep> {
  await child.exited;
  releaseGroup(child.pid);
  const sweep = await sweepLeftovers(child.launch, graceMs);
  const pipes = Promise.all([closeWithin(child.stdout, pipeWaitMs), closeWithin(child.stderr, pipeWaitMs)]);
  const closedSoon = await settlesWithin(pipes, Math.min(PIPE_HOLDER_MS, pipeWaitMs));
  const late = closedSoon || sweep.scan === "unavailable" ? undefined : await sweepLeftovers(child.launch, graceMs);
  await pipes;
  child.stdin.destroy();
  if (late === undefined) return sweep;
  return { ...sweep, found: [...sweep.found, ...late.found].slice(0, LEFTOVERS_RECORDED), ...dropped(sweep, late) };
}

/** After the exit and the kit's first look: a pipe still open this long has a holder. */
const PIPE_HOLDER_MS = 50;

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function dropped(a: LeftoverSweep, b: LeftoverSweep): { dropped?: number } {
  const extra = Math.max(0, a.found.length + b.found.length - LEFTOVERS_RECORDED) + (a.dropped ?? 0) + (b.dropped ?? 0);
  return extra > 0 ? { dropped: extra } : {};
}

function closeWithin(stream: Readable, ms: number): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => stream.destroy(), ms);
    stream.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Spawn argv in a new process group. Target-file problems are SpawnFailures; throws only on bad options. */
export async function spawnGroup(options: GroupSpawnOptions): Promise<SpawnOutcome> {
  validateSpawnOptions(options);
  const [file, ...args] = options.argv as [string, ...string[]];
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const resolved = resolveExecutable(file, options.env, cwd);
  if (!resolved.ok) return resolved;

  const begun = beginLaunch();
  const startedAt = performance.now();
  let subprocess: ChildProcessWithoutNullStreams;
  try {
    subprocess = spawn(resolved.path, args, {
      shell: false, detached: true, stdio: "pipe", env: markedEnv(options.env, begun.marker), cwd, argv0: file, windowsHide: true,
    });
  } catch (error) {
    // Synchronous spawn errors (e.g. ENOEXEC, E2BIG) are thrown by Node; they are the target's, not the kit's.
    return { ok: false, error: toFailure(error) };
  }
  const pid = subprocess.pid;
  // Synchronously, microseconds after the exec: the child's stdio pipes as /proc shows them.
  const launch = pid === undefined ? undefined : traceLaunch(pid, begun);
  if (pid === undefined || launch === undefined) {
    // Asynchronous spawn errors (ENOENT, EACCES...) arrive as 'error' on the next tick.
    const cause = await new Promise<unknown>((resolve) => subprocess.once("error", resolve));
    for (const stream of [subprocess.stdin, subprocess.stdout, subprocess.stderr]) stream.destroy();
    // The target or cwd may have changed since it was resolved: a fresh look says what is wrong, if it can.
    forgetResolutions();
    const again = resolveExecutable(file, options.env, cwd);
    return { ok: false, error: again.ok ? toFailure(cause) : again.error };
  }

  registerGroup(pid);
  let status: ExitStatus | null = null;
  subprocess.on("error", () => undefined);
  const exited = new Promise<ExitStatus>((resolve) => {
    subprocess.once("exit", (code: number | null, signal: NodeJS.Signals | null) => {
      status = { exitCode: code, signal, endedAt: performance.now() };
      resolve(status);
    });
  });
  const { stdin, stdout, stderr } = subprocess;
  for (const stream of [stdin, stdout, stderr]) stream.on("error", () => undefined);
  // Handed over paused (readableFlowing = false): the caller listens, then resume()s them.
  stdout.pause();
  stderr.pause();
  const child: GroupChild = { pid, stdin, stdout, stderr, startedAt, launch, exited, exitStatus: () => status };
  return { ok: true, child };
}

/** Throws TypeError for an argv or environment no spawn takes (the Node path and the native spawner alike). */
export function validateSpawnOptions(options: Pick<GroupSpawnOptions, "argv" | "env">): void {
  const { argv, env } = options;
  if (!Array.isArray(argv) || argv.length === 0) throw new TypeError("argv must be a non-empty array");
  if (argv.some((arg) => typeof arg !== "string" || arg.includes("\0")) || argv[0] === "") {
    throw new TypeError("argv entries must be strings without NUL, and argv[0] non-empty");
  }
  for (const [key, value] of Object.entries(env)) {
    if (typeof value !== "string" || key.includes("\0") || key.includes("=") || value.includes("\0")) {
      throw new TypeError(`invalid environment entry ${JSON.stringify(key)}`);
    }
  }
}

function toFailure(error: unknown): SpawnFailure {
  return { code: errorCode(error) ?? "ESPAWN", message: error instanceof Error ? error.message : String(error) };
}

function errorCode(error: unknown): string | undefined {
  const isObject = typeof error === "object" && error !== null;
  return isObject && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/**
 * Processes that came from a candidate launch and escaped its process group (setsid, a
 * double fork): the group kill cannot reach them, so after every launch ends the kit looks
 * for them in /proc and ends them. A process counts as the launch's when it started at or
 * after the launch, is not in the launch's (already killed) process group, and either
 * carries the launch's marker in its environment or holds one of the stdio pipes the kit
 * gave the launch. Nothing else is ever signalled: not the kit, not a process older than
 * the launch, not a process without the marker or the pipe, and each is checked again
 * right before each signal.
 *
 * Node creates a child's stdio as socket pairs: the child's ends have their own inodes
 * (the kit's ends differ), so the kit reads them from /proc/<pid>/fd/{0,1,2} right after
 * spawning, before the child can have run any code of its own.
 */
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { LAUNCH_MARKER_ENV, LEFTOVERS_RECORDED, type Leftover, type LeftoverSweep, type StdStream } from "../core/process-outcome.js";
import { carriesMarker, commandOf, lastPid, PROC_ROOT, procAvailable, readCapped, readLink, readStat, uptimeTicks } from "./proc-read.js";

export { LAUNCH_MARKER_ENV, PROC_ROOT };

/** What the kit knows of one launch to find its leftovers later. */
export interface LaunchTrace {
  /** This launch's value in LAUNCH_MARKER_ENV. */
  readonly marker: string;
  /** The leader's pid (= its process group id). */
  readonly pid: number;
  /** Where /proc is, or undefined on a platform without it. */
  readonly proc: string | undefined;
  /** The leader's start in clock ticks since boot; processes that started earlier are never the launch's. */
  readonly startTicks: number;
  /** What the leader's fds 0-2 pointed at right after spawn ("socket:[123]"), by stream. */
  readonly stdio: ReadonlyMap<string, StdStream>;
  /** performance.now() at spawn. */
  readonly startedAt: number;
}

/** A process found in /proc that belongs to a launch. */
export interface Found {
  pid: number;
  startTicks: number;
  foundBy: Leftover["foundBy"];
  holds: Leftover["holds"];
  command: string;
}

/** Bytes of a process's environment the kit reads (an environment is rarely past a few KiB). */
const ENVIRON_CAP = 1024 * 1024;
/** Open files of one process the kit looks at (in the order /proc lists them: by fd number). */
const FD_CAP = 4096;
/** Rounds of look-and-kill: a round ends what the previous one's leftovers started while dying. */
const MAX_ROUNDS = 4;
/** After SIGKILL: how long to wait for the leftovers to be gone. */
const KILL_WAIT_MS = 500;
const POLL_MS = 10;
/** Within this long of the launch, only pids above the leader's (and no wrap since) can be newer. */
const PID_ORDER_MS = 2000;
const STREAMS: readonly StdStream[] = ["stdin", "stdout", "stderr"];

const live = new Set<LaunchTrace>();

/** A fresh marker value: the kit's pid and 64 random bits. */
export function newMarker(): string {
  return `${process.pid}-${randomBytes(8).toString("hex")}`;
}

/** The child environment with the launch marker added (a marker the kit itself inherited is kept in front). */
export function markedEnv(env: Record<string, string>, marker: string): Record<string, string> {
  const inherited = env[LAUNCH_MARKER_ENV];
  const chain = inherited === undefined || inherited === "" ? [] : inherited.split(":").slice(-7);
  return { ...env, [LAUNCH_MARKER_ENV]: [...chain, marker].join(":") };
}

/** Records what the kit needs to find the launch's leftovers; call synchronously right after spawn. */
export function traceLaunch(pid: number, marker: string, startedAt: number, root = PROC_ROOT): LaunchTrace {
  const proc = procAvailable(root) ? root : undefined;
  const stdio = new Map<string, StdStream>();
  let startTicks = 0;
  if (proc !== undefined) {
    startTicks = readStat(proc, pid)?.startTicks ?? uptimeTicks(proc);
    STREAMS.forEach((stream, fd) => {
      const link = readLink(`${proc}/${pid}/fd/${fd}`);
      if (link !== undefined && /^(socket|pipe):\[\d+\]$/.test(link)) stdio.set(link, stream);
    });
  }
  const trace: LaunchTrace = { marker, pid, proc, startTicks, stdio, startedAt };
  live.add(trace);
  return trace;
}

function pipesHeld(trace: LaunchTrace, proc: string, pid: number): Leftover["holds"] {
  if (trace.stdio.size === 0) return [];
  let fds: string[];
  try {
    fds = readdirSync(`${proc}/${pid}/fd`);
  } catch {
    return [];
  }
  const holds: Leftover["holds"] = [];
  for (const fd of fds.slice(0, FD_CAP)) {
    const link = readLink(`${proc}/${pid}/fd/${fd}`);
    const stream = link === undefined ? undefined : trace.stdio.get(link);
    if (link !== undefined && stream !== undefined && !holds.some((h) => h.stream === stream)) holds.push({ stream, link });
  }
  return holds.sort((a, b) => STREAMS.indexOf(a.stream) - STREAMS.indexOf(b.stream));
}

/** Never signalled, whatever they carry: init, the kit and its parent, the launch's own leader. */
function untouchable(pid: number, trace: LaunchTrace): boolean {
  return !Number.isSafeInteger(pid) || pid <= 1 || pid === process.pid || pid === process.ppid || pid === trace.pid;
}

/** The launch's process with this pid, if it is one right now: by its environment (the marker), then its open files (the pipes). */
export function inspect(trace: LaunchTrace, pid: number): Found | undefined {
  const proc = trace.proc;
  if (proc === undefined || untouchable(pid, trace)) return undefined;
  const stat = readStat(proc, pid);
  // Gone, a zombie, older than the launch, or in its process group (already sent SIGKILL).
  if (stat === undefined || stat.state === "Z" || stat.state === "X" || stat.startTicks < trace.startTicks || stat.pgrp === trace.pid) return undefined;
  const environ = readCapped(`${proc}/${pid}/environ`, ENVIRON_CAP);
  const marked = environ !== undefined && carriesMarker(environ, trace.marker);
  const holds = pipesHeld(trace, proc, pid);
  if (!marked && holds.length === 0) return undefined;
  const foundBy: Found["foundBy"] = [...(marked ? (["marker"] as const) : []), ...(holds.length > 0 ? (["pipe"] as const) : [])];
  return { pid, startTicks: stat.startTicks, foundBy, holds, command: commandOf(proc, pid, stat.comm) };
}

/** Every process of the launch still running outside its process group. */
export function findLeftovers(trace: LaunchTrace): Found[] {
  const proc = trace.proc;
  if (proc === undefined) return [];
  // Soon after the launch, with no pid wrap since, a process started after it has a higher
  // pid (and none was started when the last pid handed out is still the leader's).
  const last = performance.now() - trace.startedAt < PID_ORDER_MS ? lastPid(proc) : undefined;
  if (last === trace.pid) return [];
  const above = last !== undefined && last > trace.pid ? trace.pid : 0;
  let names: string[];
  try {
    names = readdirSync(proc);
  } catch {
    return [];
  }
  const found: Found[] = [];
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= above || String(pid) !== name) continue;
    const hit = inspect(trace, pid);
    if (hit !== undefined) found.push(hit);
  }
  return found;
}

function alive(trace: LaunchTrace, found: Found): boolean {
  const stat = trace.proc === undefined ? undefined : readStat(trace.proc, found.pid);
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X" && stat.startTicks === found.startTicks;
}

/** Signals a leftover after checking that the pid is still that very process of the launch. */
function signalLeftover(trace: LaunchTrace, found: Found, signal: NodeJS.Signals): "sent" | "gone" | "refused" {
  const now = inspect(trace, found.pid);
  if (now === undefined || now.startTicks !== found.startTicks) return "gone";
  try {
    process.kill(found.pid, signal);
    return "sent";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? "gone" : "refused";
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function goneWithin(trace: LaunchTrace, found: readonly Found[], ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (found.some((f) => alive(trace, f)) && performance.now() < until) await sleep(POLL_MS);
}

/** SIGTERM each, SIGKILL those still there after graceMs; says how each ended. */
async function endAll(trace: LaunchTrace, found: readonly Found[], graceMs: number): Promise<Map<Found, Leftover["ended"]>> {
  const ended = new Map<Found, Leftover["ended"]>();
  const termed: Found[] = [];
  for (const f of found) {
    const sent = signalLeftover(trace, f, "SIGTERM");
    if (sent === "sent") termed.push(f);
    else ended.set(f, sent === "gone" ? "exited" : "survived");
  }
  await goneWithin(trace, termed, graceMs);
  const killed: Found[] = [];
  for (const f of termed) {
    if (!alive(trace, f)) ended.set(f, "SIGTERM");
    else if (signalLeftover(trace, f, "SIGKILL") === "sent") killed.push(f);
    else ended.set(f, alive(trace, f) ? "survived" : "SIGTERM");
  }
  await goneWithin(trace, killed, KILL_WAIT_MS);
  for (const f of killed) ended.set(f, alive(trace, f) ? "survived" : "SIGKILL");
  return ended;
}

/**
 * After the launch's leader exited and its group was killed: finds the launch's processes
 * that are still running, ends them (SIGTERM, SIGKILL after graceMs) and looks again, until
 * a look finds none or MAX_ROUNDS passed. Resolves with what was found; never rejects.
 */
export async function sweepLeftovers(trace: LaunchTrace, graceMs: number): Promise<LeftoverSweep> {
  if (trace.proc === undefined) {
    live.delete(trace);
    return { scan: "unavailable", found: [] };
  }
  const records = new Map<string, Leftover>();
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const found = findLeftovers(trace);
      if (found.length === 0) break;
      const ended = await endAll(trace, found, graceMs);
      for (const f of found) {
        const key = `${f.pid}@${f.startTicks}`;
        const known = records.get(key);
        const how = ended.get(f) ?? "survived";
        if (known !== undefined) known.ended = how;
        else records.set(key, { pid: f.pid, command: f.command, foundBy: f.foundBy, holds: f.holds, ended: how });
      }
    }
  } finally {
    live.delete(trace);
  }
  const all = [...records.values()];
  return { scan: "proc", found: all.slice(0, LEFTOVERS_RECORDED), ...(all.length > LEFTOVERS_RECORDED ? { dropped: all.length - LEFTOVERS_RECORDED } : {}) };
}

/** The kit is exiting: SIGKILL, at once and synchronously, the leftovers of every launch not swept yet. */
export function killLeftoversNow(): void {
  for (const trace of live) {
    for (const found of findLeftovers(trace)) signalLeftover(trace, found, "SIGKILL");
  }
  live.clear();
}

/** Lets go of a launch without a look (the kit gave up on its leader). */
export function forgetLaunch(trace: LaunchTrace): void {
  live.delete(trace);
}

/** Launches traced and not swept yet (for tests). */
export const unsweptLaunches = (): number => live.size;

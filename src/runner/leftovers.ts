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
 * (the kit's ends differ), so the kit reads them from /proc/<pid>/fd/{0,1,2} synchronously
 * right after the spawn returns, microseconds after the exec: a child that rearranges its
 * stdio faster than that is found by the marker only.
 */
import { readdirSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { LAUNCH_MARKER_ENV, LEFTOVERS_RECORDED, type Leftover, type LeftoverSweep, type StdStream } from "../core/process-outcome.js";
import { markerPrefix, type LaunchStart } from "./launch-start.js";
import { commandOf, lastPid, markerLinks, PROC_ROOT, readCapped, readLink, readStat, tgidOf, type Stat } from "./proc-read.js";

export { LAUNCH_MARKER_ENV, PROC_ROOT };
export { beginLaunch, markedEnv, newMarker, type LaunchStart } from "./launch-start.js";

/** What the kit knows of one launch to find its leftovers later. */
export interface LaunchTrace extends LaunchStart {
  /** The leader's pid (= its process group id). */
  readonly pid: number;
  /** What the leader's fds 0-2 pointed at right after spawn ("socket:[123]"), by stream. */
  readonly stdio: ReadonlyMap<string, StdStream>;
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
/** Up to this many pids handed out since the launch, they are probed one by one rather than listed. */
const PROBE_RANGE = 64;
const STREAMS: readonly StdStream[] = ["stdin", "stdout", "stderr"];

const live = new Set<LaunchTrace>();
/**
 * Records what the kit needs to find the launch's leftovers: call synchronously right after
 * the spawn returns, when the child's fds 0-2 are still the kit's pipes (only "socket:[n]"
 * and "pipe:[n]" links are kept). The leader leads its own process group: its pgid is its pid.
 */
export function traceLaunch(pid: number, start: LaunchStart): LaunchTrace {
  const stdio = new Map<string, StdStream>();
  const proc = start.proc;
  if (proc !== undefined) {
    STREAMS.forEach((stream, fd) => {
      const link = readLink(`${proc}/${pid}/fd/${fd}`);
      if (link !== undefined && /^(socket|pipe):\[\d+\]$/.test(link)) stdio.set(link, stream);
    });
  }
  const trace: LaunchTrace = { ...start, pid, stdio };
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

const NONE: ReadonlySet<number> = new Set();

/**
 * The processes whose children are launches of this kit: this process, and the kit's other
 * launcher processes (launcher/serve.ts), as the kit last said. A leftover's parent is a process
 * of its launch or a reaper (init, a subreaper above the kit), never one of these: their
 * children are ruled out by their stat alone. Most pids handed out while a launch ran are
 * other launches' when calls run side by side. Not this process when it is its pid namespace's
 * init (the kit as pid 1 of a container): orphans are then its children too.
 */
const SELF: readonly number[] = process.pid === 1 ? [] : [process.pid];
let launching: ReadonlySet<number> = new Set(SELF);

/** The kit's other launcher processes (in a launcher: the pids its kit gives with every call). */
export function knowLaunchers(pids: readonly number[]): void {
  const wanted = pids.filter((pid) => pid > 1);
  if (wanted.length + SELF.length === launching.size && wanted.every((pid) => launching.has(pid))) return;
  launching = new Set([...SELF, ...wanted]);
}

/**
 * Not one of the launch's processes, by its stat alone: a zombie, older than the launch,
 * in the launch's process group (already sent SIGKILL), in the group of another live launch of
 * this kit (`others`: a process cannot join a group of another session), or a child of a
 * process that launches.
 */
function ruledOut(trace: LaunchTrace, stat: Stat, others: ReadonlySet<number>): boolean {
  if (stat.state === "Z" || stat.state === "X" || stat.startTicks < trace.startTicks) return true;
  return stat.pgrp === trace.pid || others.has(stat.pgrp) || launching.has(stat.ppid);
}

/**
 * The launch's process with this pid, if it is one right now: by its environment (the
 * marker), then its open files (the pipes). `others`: the leaders of the kit's other live
 * launches, whose process groups are theirs.
 */
export function inspect(trace: LaunchTrace, pid: number, others: ReadonlySet<number> = NONE, known?: Stat): Found | undefined {
  const proc = trace.proc;
  if (proc === undefined || untouchable(pid, trace)) return undefined;
  const stat = known ?? readStat(proc, pid);
  if (stat === undefined || ruledOut(trace, stat, others)) return undefined;
  const environ = readCapped(`${proc}/${pid}/environ`, ENVIRON_CAP);
  const links = environ === undefined ? [] : markerLinks(environ);
  const marked = links.includes(trace.marker);
  // Another launch of this kit (a parallel job): not this one's, and not worth reading its open files.
  if (!marked && links.some((link) => link.startsWith(markerPrefix()))) return undefined;
  const holds = pipesHeld(trace, proc, pid);
  if (!marked && holds.length === 0) return undefined;
  const foundBy: Found["foundBy"] = [...(marked ? (["marker"] as const) : []), ...(holds.length > 0 ? (["pipe"] as const) : [])];
  return { pid, startTicks: stat.startTicks, foundBy, holds, command: commandOf(proc, pid, stat.comm) };
}

/**
 * The pids to look at: soon after the launch, with no pid wrap since, a process started after
 * it has a higher pid, up to the last pid handed out (none when that is still the leader's).
 * A short range is probed pid by pid (`probed`: those may be thread ids); a long one, or an
 * old launch, takes the listing of /proc, which lists processes only.
 */
function candidatePids(trace: LaunchTrace, proc: string): { pids: number[]; probed: boolean } {
  const last = performance.now() - trace.startedAt < PID_ORDER_MS ? lastPid(proc) : undefined;
  if (last === trace.pid) return { pids: [], probed: false };
  if (last !== undefined && last > trace.pid && last - trace.pid <= PROBE_RANGE) {
    return { pids: Array.from({ length: last - trace.pid }, (_, i) => trace.pid + 1 + i), probed: true };
  }
  const above = last !== undefined && last > trace.pid ? trace.pid : 0;
  let names: string[];
  try {
    names = readdirSync(proc);
  } catch {
    return { pids: [], probed: false };
  }
  const pids = names.flatMap((name) => {
    const pid = Number(name);
    return Number.isSafeInteger(pid) && pid > above && String(pid) === name ? [pid] : [];
  });
  return { pids, probed: false };
}

/** Every process of the launch still running outside its process group. */
export function findLeftovers(trace: LaunchTrace): Found[] {
  const proc = trace.proc;
  if (proc === undefined) return [];
  // The kit's own candidates (parallel jobs) lead other launches: neither they nor their groups are this one's.
  const leaders = new Set<number>();
  for (const other of live) if (other.pid !== trace.pid) leaders.add(other.pid);
  const { pids, probed } = candidatePids(trace, proc);
  const seen = new Set<number>();
  const found: Found[] = [];
  for (const pid of pids) {
    if (seen.has(pid) || leaders.has(pid)) continue;
    seen.add(pid);
    if (!probed) {
      const hit = inspect(trace, pid, leaders);
      if (hit !== undefined) found.push(hit);
      continue;
    }
    // A probed pid may be a thread id. Its own stat rules most out (a thread's state and start
    // are its own, its parent and group its process's); then its process is looked at once.
    const stat = readStat(proc, pid);
    if (stat === undefined || ruledOut(trace, stat, leaders)) continue;
    const tgid = tgidOf(proc, pid);
    if (tgid === undefined || (tgid !== pid && (seen.has(tgid) || leaders.has(tgid)))) continue;
    seen.add(tgid);
    const hit = inspect(trace, tgid, leaders, tgid === pid ? stat : undefined);
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

/**
 * Where the CPU goes during a measured run, per call, read from /proc (Linux only): the
 * kit's own process (or the floor's), its launcher processes, the candidates (reaped by the
 * launchers, or by the floor process), and how many of the machine's cores were busy.
 * /proc counts in clock ticks of 10 ms (USER_HZ is 100 on Linux), so a run of about a second
 * reads to within a few percent.
 */
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

const TICK_MS = 10;

export interface Times {
  /** CPU time of the process itself, and of its children it reaped, in ms. */
  self: number;
  children: number;
}

/** The CPU times in a /proc/PID/stat text (the command, in parentheses, may hold spaces and parentheses). */
export function statTimes(stat: string): Times {
  // Fields after the command's closing parenthesis: utime is the 12th, then stime, cutime, cstime.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = (i: number): number => Number(fields[i] ?? 0);
  return { self: (ticks(11) + ticks(12)) * TICK_MS, children: (ticks(13) + ticks(14)) * TICK_MS };
}

function processTimes(pid: number | "self" | "main"): Times {
  // "main": this process's main thread alone (its task of the process's own id), without its worker threads.
  return statTimes(readFileSync(pid === "main" ? `/proc/self/task/${process.pid}/stat` : `/proc/${pid}/stat`, "utf8"));
}

function machineTimes(): { idle: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
}

export interface CpuSnapshot {
  kit: NodeJS.CpuUsage;
  own: Times;
  main: Times;
  launchers: Times[];
  machine: { idle: number; total: number };
}

/** What is used so far; undefined where /proc is missing. */
export function cpuSnapshot(launcherPids: readonly number[]): CpuSnapshot | undefined {
  if (!existsSync("/proc/self/stat")) return undefined;
  return { kit: process.cpuUsage(), own: processTimes("self"), main: processTimes("main"), launchers: launcherPids.map((pid) => processTimes(pid)), machine: machineTimes() };
}

/** A measured run: its rate, and where its CPU went per call (undefined without /proc). */
export interface Measured {
  rate: number;
  share?: CpuShare;
}

export interface CpuShare {
  /** ms of CPU per call in the kit's process, all its threads (for the floor: the floor's own process). */
  kit: number;
  /** ms of CPU per call in the kit's main thread (its event loop; for the floor: the same as kit). */
  main: number;
  launchers: number;
  candidates: number;
  /** Cores busy on the whole machine during the run. */
  cores: number;
}

/**
 * The CPU per call between two snapshots. `floor` is set for a floor run: the floor process
 * reports its own CPU in the loop and in all, and the rest of what this process reaped from it
 * is its candidates'.
 */
export function cpuShare(before: CpuSnapshot, after: CpuSnapshot, calls: number, floor?: { cpuMs: number; selfMs: number }): CpuShare {
  const sum = (list: Times[], key: keyof Times): number => list.reduce((n, t) => n + t[key], 0);
  const reaped = after.own.children - before.own.children;
  const idle = after.machine.idle - before.machine.idle;
  const total = after.machine.total - before.machine.total;
  const cores = total > 0 ? (1 - idle / total) * availableParallelism() : 0;
  if (floor !== undefined) return { kit: floor.cpuMs / calls, main: floor.cpuMs / calls, launchers: 0, candidates: Math.max(0, reaped - floor.selfMs) / calls, cores };
  const kit = (after.kit.user + after.kit.system - before.kit.user - before.kit.system) / 1000;
  const launched = sum(after.launchers, "self") - sum(before.launchers, "self");
  const candidates = sum(after.launchers, "children") - sum(before.launchers, "children");
  const main = after.main.self - before.main.self;
  return { kit: kit / calls, main: main / calls, launchers: launched / calls, candidates: candidates / calls, cores };
}

/**
 * Small synchronous readers of /proc (Linux): each reads one file or link of one process,
 * bounded, and returns undefined instead of throwing when the process is gone or hidden.
 */
import { closeSync, existsSync, openSync, readlinkSync, readSync } from "node:fs";
import { LAUNCH_MARKER_ENV } from "../core/process-outcome.js";

export const PROC_ROOT = "/proc";
const COMMAND_CHARS = 300;

let available: boolean | undefined;

/** Whether this platform has a /proc the kit can read (checked once). */
export function procAvailable(root = PROC_ROOT): boolean {
  if (root !== PROC_ROOT) return existsSync(`${root}/self/stat`);
  available ??= existsSync(`${PROC_ROOT}/self/stat`) && existsSync(`${PROC_ROOT}/self/environ`);
  return available;
}

export interface Stat {
  state: string;
  ppid: number;
  pgrp: number;
  startTicks: number;
  /** User + system CPU time of all its threads so far, in clock ticks (utime + stime). */
  cpuTicks: number;
  comm: string;
}

/** Bytes of a stat line read: 52 numeric fields and a command of at most 64 bytes fit with room to spare. */
const STAT_CAP = 4096;

export function readStat(proc: string, pid: number): Stat | undefined {
  const text = readText(`${proc}/${pid}/stat`, STAT_CAP);
  if (text === undefined) return undefined;
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  const startTicks = Number(fields[19]);
  if (close < 0 || !Number.isFinite(startTicks)) return undefined;
  return { state: fields[0] ?? "?", ppid: Number(fields[1]), pgrp: Number(fields[2]), startTicks, cpuTicks: Number(fields[11]) + Number(fields[12]), comm: text.slice(text.indexOf("(") + 1, close) };
}

/**
 * Now, in the clock ticks since boot that /proc/<pid>/stat counts process starts in (USER_HZ
 * is 100 on Linux), one tick early so a process started now never counts as older.
 */
export function uptimeTicks(proc: string): number {
  const seconds = Number(readText(`${proc}/uptime`, 256)?.split(" ")[0]);
  return Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds * 100) - 1) : 0;
}

export function readLink(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}

/** One buffer for every read: /proc files are read and looked at at once, synchronously. */
let scratch = Buffer.alloc(16 * 1024);

/**
 * Up to `cap` bytes of a file, or undefined when it cannot be read. The bytes are a view of a
 * shared buffer, valid until the next call: use them at once.
 */
export function readCapped(file: string, cap: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    let total = 0;
    while (total < cap) {
      if (total === scratch.length) {
        const grown = Buffer.alloc(Math.min(cap, scratch.length * 4));
        scratch.copy(grown, 0, 0, total);
        scratch = grown;
      }
      const n = readSync(fd, scratch, total, Math.min(scratch.length, cap) - total, null);
      if (n <= 0) break;
      total += n;
    }
    return scratch.subarray(0, total);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A small file as text (latin1), or undefined when it cannot be read. Read through the shared
 * buffer: readFileSync allocates 64 KiB for every file whose size stat does not give (all of
 * /proc), and the kit reads a few such files around every launch.
 */
export function readText(file: string, cap: number): string | undefined {
  return readCapped(file, cap)?.toString("latin1");
}

/** The values of the marker variable in an environment block (NUL-separated), each split into its chain of launches. */
export function markerLinks(environ: Buffer): string[] {
  const prefix = `${LAUNCH_MARKER_ENV}=`;
  if (environ.indexOf(prefix, 0, "latin1") < 0) return [];
  return environ
    .toString("latin1")
    .split("\0")
    .flatMap((entry) => (entry.startsWith(prefix) ? entry.slice(prefix.length).split(":") : []));
}

/** Whether an environment block holds the marker variable with this launch's value in its chain. */
export function carriesMarker(environ: Buffer, marker: string): boolean {
  return environ.indexOf(marker, 0, "latin1") >= 0 && markerLinks(environ).includes(marker);
}

export function commandOf(proc: string, pid: number, comm: string): string {
  return commandText(readCapped(`${proc}/${pid}/cmdline`, CMDLINE_CAP), comm);
}

/** Bytes of a command line read (native/spawner.c reads as many). */
export const CMDLINE_CAP = 4096;

/** A process's command as a leftover records it: its command line (arguments joined by spaces), else [comm], at most 300 characters. */
export function commandText(raw: Buffer | undefined, comm: string): string {
  const text = raw === undefined ? "" : raw.toString("utf8").replace(/\0+$/, "").replace(/\0/g, " ").trim();
  const command = text === "" ? `[${comm}]` : text;
  return command.length > COMMAND_CHARS ? `${command.slice(0, COMMAND_CHARS - 1)}…` : command;
}

export function lastPid(proc: string): number | undefined {
  const value = Number(readText(`${proc}/sys/kernel/ns_last_pid`, 64) ?? NaN);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}


/** The process (thread group) a pid belongs to: itself for a process, its process for a thread id. */
export function tgidOf(proc: string, pid: number): number | undefined {
  const status = readText(`${proc}/${pid}/status`, 4096);
  const match = status === undefined ? null : /^Tgid:\s*(\d+)$/m.exec(status);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Peak resident memory of a kit command run as a user runs it: the CLI as a child process,
 * its VmHWM (the kernel's high-water mark of RSS) and that of its own children (the launcher)
 * read from /proc every 10 ms until it exits (VmHWM only grows: a reading missed at the end loses
 * at most the last 10 ms). Linux only; elsewhere the peak is NaN.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";

const POLL_MS = 10;

export interface PeakRss {
  /** The kit process, MB. */
  kit: number;
  /** Its largest child (the launcher), MB; 0 when it started none. */
  child: number;
  exitCode: number | null;
}

function hwm(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? 0 : Number(kb) / 1024;
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Runs `awp-conformance ARGS...` and follows its peak RSS (the kit's and its children's) until it exits. */
export function peakRssOf(args: string[]): Promise<PeakRss> {
  const cli = join(packageRoot(), "dist/src/cli/main.js");
  const child = spawn(process.execPath, [cli, ...args], { stdio: "ignore" });
  const peaks = { kit: 0, child: new Map<number, number>() };
  const look = (): void => {
    if (child.pid === undefined) return;
    peaks.kit = Math.max(peaks.kit, hwm(child.pid));
    for (const pid of children(child.pid)) peaks.child.set(pid, Math.max(peaks.child.get(pid) ?? 0, hwm(pid)));
  };
  const timer = setInterval(look, POLL_MS);
  return new Promise((resolve, reject) => {
    child.once("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on("exit", (code) => {
      clearInterval(timer);
      const proc = existsSync("/proc/self/status");
      resolve({ kit: proc ? peaks.kit : Number.NaN, child: proc ? Math.max(0, ...peaks.child.values()) : Number.NaN, exitCode: code });
    });
  });
}

/**
 * Peak resident memory of a kit command run as a user runs it: the CLI as a child process,
 * the VmHWM (the kernel's high-water mark of RSS) of the kit's processes (the command's, and the
 * tuned process `fuzz` runs in: src/cli/tuned.ts) and of its launchers, read from /proc every
 * 10 ms until it exits (VmHWM only grows: a reading missed at the end loses at most the last
 * 10 ms). Candidates are not counted. Linux only; elsewhere the peak is NaN.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";

const POLL_MS = 10;

export interface PeakRss {
  /** The largest kit process, MB. */
  kit: number;
  /** The largest launcher process, MB; 0 when it started none. */
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

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return [];
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
  const peaks = { kit: 0, child: 0 };
  // The kit's processes run the CLI entry; a launcher runs launcher/serve.js; anything else is a candidate.
  const look = (pid: number | undefined = child.pid): void => {
    if (pid === undefined) return;
    const argv = cmdline(pid);
    if (argv.some((arg) => arg.endsWith("launcher/serve.js"))) peaks.child = Math.max(peaks.child, hwm(pid));
    else if (argv.includes(cli)) {
      peaks.kit = Math.max(peaks.kit, hwm(pid));
      for (const below of children(pid)) look(below);
    }
  };
  const timer = setInterval(() => look(), POLL_MS);
  return new Promise((resolve, reject) => {
    child.once("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.on("exit", (code) => {
      clearInterval(timer);
      const proc = existsSync("/proc/self/status");
      resolve({ kit: proc ? peaks.kit : Number.NaN, child: proc ? peaks.child : Number.NaN, exitCode: code });
    });
  });
}

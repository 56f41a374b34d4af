/**
 * Peak resident memory of a kit command run as a user runs it: the CLI as a child process,
 * the VmHWM (the kernel's high-water mark of RSS) of the kit's processes (the command's, and the
 * tuned process `fuzz` runs in: src/cli/tuned.ts) and of its launchers, read from /proc every
 * 10 ms until it exits (VmHWM only grows: a reading missed at the end loses at most the last
 * 10 ms). Candidates are not counted. Linux only; elsewhere the peak is NaN. The CPU time of
 * the kit's processes is read at the same polls (the last ≤ 10 ms of each is missed), and the
 * command's stderr is kept (its last 64 KiB).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../src/core/paths.js";
import { statTimes } from "./cpu-share.js";

const POLL_MS = 10;
const STDERR_KEPT = 64 * 1024;

export interface PeakRss {
  /** The largest kit process, MB. */
  kit: number;
  /** The largest launcher process, MB; 0 when it started none. */
  child: number;
  exitCode: number | null;
  /** CPU time (user + system) of the kit's processes, ms; NaN off Linux. */
  kitCpuMs: number;
  /** The last 64 KiB of the command's stderr. */
  stderr: string;
}

function cpuOf(pid: number): number | undefined {
  try {
    return statTimes(readFileSync(`/proc/${pid}/stat`, "utf8")).self;
  } catch {
    return undefined;
  }
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

/** Runs `awp-conformance ARGS...` (with `env` added to this process's) and follows its peak RSS (the kit's and its children's) and its CPU until it exits. */
export function peakRssOf(args: string[], env: Record<string, string> = {}): Promise<PeakRss> {
  const cli = join(packageRoot(), "dist/src/cli/main.js");
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  const peaks = { kit: 0, child: 0 };
  const cpu = new Map<number, number>();
  // The kit's processes run the CLI entry; a launcher runs launcher/serve.js; anything else is a candidate.
  const look = (pid: number | undefined = child.pid): void => {
    if (pid === undefined) return;
    const argv = cmdline(pid);
    if (argv.some((arg) => arg.endsWith("launcher/serve.js"))) peaks.child = Math.max(peaks.child, hwm(pid));
    else if (argv.includes(cli)) {
      peaks.kit = Math.max(peaks.kit, hwm(pid));
      const used = cpuOf(pid);
      if (used !== undefined) cpu.set(pid, used);
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
      const kitCpuMs = [...cpu.values()].reduce((sum, ms) => sum + ms, 0);
      const done = (): void => resolve({ kit: proc ? peaks.kit : Number.NaN, child: proc ? peaks.child : Number.NaN, exitCode: code, kitCpuMs: proc ? kitCpuMs : Number.NaN, stderr });
      // stderr is read to its end, unless something the kit left holds it open (then 2 s of it is enough).
      if (child.stderr.readableEnded) done();
      else {
        const late = setTimeout(done, 2000);
        child.stderr.once("end", () => {
          clearTimeout(late);
          done();
        });
      }
    });
  });
}

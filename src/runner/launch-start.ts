/**
 * The start of a candidate launch: the marker the kit adds to the candidate's environment
 * (LAUNCH_MARKER_ENV, inherited by whatever the candidate starts), and the time before the
 * spawn as /proc counts process starts, so leftovers.ts can tell the launch's processes from
 * older ones.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { LAUNCH_MARKER_ENV } from "../core/process-outcome.js";
import { PROC_ROOT, procAvailable, uptimeTicks } from "./proc-read.js";

/** What the kit fixes before spawning: the launch's marker, and a lower bound of its start. */
export interface LaunchStart {
  /** This launch's value in LAUNCH_MARKER_ENV. */
  readonly marker: string;
  /** Where /proc is, or undefined on a platform without it. */
  readonly proc: string | undefined;
  /** Clock ticks since boot just before the spawn; processes that started earlier are never the launch's. */
  readonly startTicks: number;
  /** performance.now() just before the spawn. */
  readonly startedAt: number;
}

let kitPrefix = `${process.pid}-`;

/** Every marker this kit hands out starts so: the kit's pid, then a dash. */
export const markerPrefix = (): string => kitPrefix;

/** In the kit's launcher process: launches are the kit's, and their markers carry the kit's pid. */
export function launchForKit(pid: number): void {
  if (!Number.isSafeInteger(pid) || pid <= 1) throw new RangeError(`not a kit pid: ${pid}`);
  kitPrefix = `${pid}-`;
}

/** 32 random bits per kit process, then a count: unique per launch, and across kit runs that reuse a pid. */
const MARKER_BASE = randomBytes(4).toString("hex");
let launches = 0;

/** A fresh marker value: the kit's pid, then 16 hex digits (this kit's random base, and the launch count). */
export function newMarker(): string {
  launches = (launches + 1) % 0x1_0000_0000;
  return `${kitPrefix}${MARKER_BASE}${launches.toString(16).padStart(8, "0")}`;
}

/** The child environment with the launch marker added (a marker the kit itself inherited is kept in front). */
export function markedEnv(env: Record<string, string>, marker: string): Record<string, string> {
  const inherited = env[LAUNCH_MARKER_ENV];
  const chain = inherited === undefined || inherited === "" ? [] : inherited.split(":").slice(-7);
  return { ...env, [LAUNCH_MARKER_ENV]: [...chain, marker].join(":") };
}

/** Reading /proc/uptime costs tens of microseconds: read it now and then, and count from there. */
let clock: { proc: string; ticks: number; at: number } | undefined;
const CLOCK_REFRESH_MS = 5000;

/**
 * Now in clock ticks since boot, as /proc/<pid>/stat counts process starts, never later than
 * the truth: the monotonic clock stops in a suspend that boot time counts, so a stale estimate
 * only runs behind.
 */
function bootTicks(proc: string): number {
  if (clock === undefined || clock.proc !== proc || performance.now() - clock.at > CLOCK_REFRESH_MS) {
    // The reading's time is taken after it: a reading that came late (the kit descheduled while
    // it read) makes the estimate run behind, never ahead of the truth.
    const ticks = uptimeTicks(proc);
    clock = { proc, ticks, at: performance.now() };
  }
  return Math.max(0, clock.ticks + Math.floor(((performance.now() - clock.at) / 1000) * 100) - 1);
}

/** Before the spawn: a fresh marker, and now as /proc counts process starts. */
export function beginLaunch(root = PROC_ROOT): LaunchStart {
  const proc = procAvailable(root) ? root : undefined;
  return { marker: newMarker(), proc, startTicks: proc === undefined ? 0 : bootTicks(proc), startedAt: performance.now() };
}

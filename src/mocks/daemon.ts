/**
 * The faults that leave a process behind (both mocks): a grandchild in a NEW session
 * (outside the launcher's process group, out of reach of a group kill) that sleeps, and
 * carries DAEMON_TAG and the launch marker in its argv so a test finds it even after it
 * dropped its environment.
 *
 *   leave-daemon-stdout   holds the mock's stdout, environment emptied: only the pipe finds it
 *   leave-daemon-stderr   holds only stderr, keeps the environment: the marker and the pipe find it
 *   leave-daemon-no-fds   closes fds 0-2 and holds no pipe: only the marker finds it
 */
import type { StdioOptions } from "node:child_process";

export const DAEMON_TAG = "awp-leftover-daemon";
const MARKER = "AWP_CONFORMANCE_LAUNCH";

const sleepFor = (ms: number): string => `setTimeout(() => {}, ${Math.max(0, Math.floor(ms))})`;
const closeAll = (ms: number): string => `for (const fd of [0, 1, 2]) { try { require("node:fs").closeSync(fd); } catch {} } ${sleepFor(ms)}`;

const DAEMONS: Readonly<Record<string, { stdio: StdioOptions; emptyEnv: boolean; script: (ms: number) => string }>> = {
  "leave-daemon-stdout": { stdio: ["ignore", "inherit", "ignore"], emptyEnv: true, script: sleepFor },
  "leave-daemon-stderr": { stdio: ["ignore", "ignore", "inherit"], emptyEnv: false, script: sleepFor },
  "leave-daemon-no-fds": { stdio: "ignore", emptyEnv: false, script: closeAll },
};

export const DAEMON_FAULTS: readonly string[] = Object.keys(DAEMONS);

/** Starts the named fault's daemon, living `ms`; returns once it is spawned, the daemon lives on. */
export async function leaveDaemon(fault: string, ms: number): Promise<void> {
  const daemon = DAEMONS[fault];
  if (daemon === undefined) return;
  // Loaded only by these faults: every other mock start goes without it.
  const { spawn } = await import("node:child_process");
  const marker = process.env[MARKER] ?? "none";
  const child = spawn(process.execPath, ["-e", daemon.script(ms), DAEMON_TAG, marker], {
    detached: true,
    stdio: daemon.stdio,
    env: daemon.emptyEnv ? {} : process.env,
  });
  child.on("error", () => undefined);
  child.unref();
}

// leftover-daemon.mjs: the faults that leave a process behind, shared by provider-fake.mjs
// and agent-cli-fake.mjs. Each starts a grandchild in a NEW session (setsid: outside the
// kit's process group, out of reach of its group kill) that sleeps 600 s, so a leftover the
// kit misses is plain to see, and carries DAEMON_TAG and the launch marker in its argv, so
// a test finds it even after it dropped its environment.
//
//   leave-daemon-stdout   holds the candidate's stdout, environment emptied: only the pipe finds it
//   leave-daemon-stderr   holds only stderr, keeps the environment: the marker and the pipe find it
//   leave-daemon-no-fds   closes fds 0-2 and holds no pipe of the kit: only the marker finds it

import { spawn } from "node:child_process";

export const DAEMON_TAG = "awp-leftover-daemon";
const MARKER = "AWP_CONFORMANCE_LAUNCH";

const SLEEP = "setTimeout(() => {}, 600000)";
const CLOSE_ALL = `for (const fd of [0, 1, 2]) { try { require("node:fs").closeSync(fd); } catch {} } ${SLEEP}`;

const DAEMONS = {
  "leave-daemon-stdout": { stdio: ["ignore", "inherit", "ignore"], env: {}, script: SLEEP },
  "leave-daemon-stderr": { stdio: ["ignore", "ignore", "inherit"], env: undefined, script: SLEEP },
  "leave-daemon-no-fds": { stdio: "ignore", env: undefined, script: CLOSE_ALL },
};

export const DAEMON_FAULTS = Object.keys(DAEMONS);

/** Starts the fault's daemon (nothing for other faults); returns at once, the daemon lives on. */
export function leaveDaemon(fault) {
  const daemon = DAEMONS[fault];
  if (daemon === undefined) return;
  const marker = process.env[MARKER] ?? "none";
  const child = spawn(process.execPath, ["-e", daemon.script, DAEMON_TAG, marker], {
    detached: true,
    stdio: daemon.stdio,
    env: daemon.env ?? process.env,
  });
  child.on("error", () => {});
  child.unref();
}

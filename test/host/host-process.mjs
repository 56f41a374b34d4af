// host-process.mjs: what the kit's small test hosts (launch-host.mjs, agent-host.mjs) share: the
// child environment as the contracts build it, starting a child in its own process group without
// a shell (or through one, for the broken host), signalling the group, bounded waits. Node.js
// built-ins only.
import { spawn } from "node:child_process";

const ALLOWLIST = ["PATH", "Path", "PATHEXT", "SystemRoot", "WINDIR", "COMSPEC", "TEMP", "TMP", "HOME", "USERPROFILE", "LOCALAPPDATA", "APPDATA", "LANG", "LC_ALL", "TERM", "COLORTERM"];
export const COMPAT = ["--output-format", "stream-json", "--input-format", "stream-json", "--print", "--verbose"];

export const jsonEnv = (name, fallback) => (process.env[name] ? JSON.parse(process.env[name]) : fallback);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The child environment: the OS allowlist from this process, then the configured entries of `configured` (a variable holding JSON). */
export function childEnv(configured) {
  const env = {};
  for (const name of ALLOWLIST) if (process.env[name] !== undefined) env[name] = process.env[name];
  return { ...env, ...jsonEnv(configured, {}) };
}

const quote = (arg) => `'${arg.replace(/'/g, "'\\''")}'`;

/** Starts `executable` in its own process group (so the whole group can be signalled), without a shell unless `viaShell`. */
export function start(executable, args, env, viaShell = false) {
  const stdio = ["pipe", "pipe", "ignore"];
  const child = viaShell
    ? spawn("/bin/sh", ["-c", [executable, ...args].map(quote).join(" ")], { stdio, env, detached: true })
    : spawn(executable, args, { stdio, env, detached: true });
  child.exited = new Promise((resolve) => child.once("exit", resolve));
  // A child that died before reading its input closes the pipe: that is an exited runtime, not a crash of the host.
  child.stdin.on("error", () => undefined);
  return child;
}

export function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Whether `promise` settles within `ms` (the timer does not outlive the answer). */
export async function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, ms, false)));
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}

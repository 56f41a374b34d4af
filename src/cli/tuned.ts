/**
 * `awp-conformance fuzz` runs in a second Node process started with a memory setting that only
 * takes effect at start-up: a young generation of at most 8 MiB a semi-space (V8's default lets
 * it grow to 16). With glibc's mmap threshold fixed as well, the two kept a 2,000-case campaign
 * near 140 MB instead of 165 (`npm run bench -- provider-fuzz`); glibc's malloc is now left as it
 * is here, so the buffers of big cases are reused (runner/malloc-env.ts: only the launchers get
 * the fixed threshold), and the campaign peaks near 127 MB. The second process costs about
 * 0.1 s of start-up (a bare Node start, and a young generation that starts smaller).
 *
 * The first process only starts the second, forwards SIGINT, SIGTERM and SIGHUP to it and exits
 * as it did. The second restores the environment before anything reads it, so the candidates
 * and the launchers see the user's environment unchanged; if the first process disappears
 * (SIGKILL), the second ends itself as on SIGTERM. Not where Node was given flags of its own
 * (--inspect, say), nor off Linux: there the kit runs in the first process as before.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { markedKitEnv, restoreMallocEnv } from "../runner/malloc-env.js";

const TUNED_FLAGS: readonly string[] = ["--max-semi-space-size=8"];
const FORWARDED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const ENTRY = fileURLToPath(new URL("./main.js", import.meta.url));

/**
 * In the second process: puts the user's environment back (runner/malloc-env.ts) and ends this
 * process as on SIGTERM once the first one is gone. True when this is the second process.
 */
export function settleTunedProcess(): boolean {
  if (!restoreMallocEnv()) return false;
  if (process.channel !== undefined) {
    process.channel.unref();
    process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
  }
  return true;
}

/** Whether this command line runs in a tuned second process. */
export function wantsTuning(argv: readonly string[]): boolean {
  return argv[2] === "fuzz" && process.platform === "linux" && process.execArgv.length === 0;
}

/** How the second process is started: its Node flags, and its environment (which settleTunedProcess puts back). */
export function tunedStart(): { execArgv: string[]; env: NodeJS.ProcessEnv } {
  return { execArgv: [...TUNED_FLAGS], env: markedKitEnv(process.env) };
}

/** The first process: starts the second and ends as it does. */
export function runTuned(argv: readonly string[]): void {
  const { execArgv, env } = tunedStart();
  const child = fork(ENTRY, argv.slice(2), { execArgv, env, stdio: ["inherit", "inherit", "inherit", "ipc"] });
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on("error", (error) => {
    process.stderr.write(`awp-conformance: could not start the kit process: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    for (const forwarded of FORWARDED) process.off(forwarded, forward);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}

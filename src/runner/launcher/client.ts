/**
 * The kit's side of the launcher processes (serve.ts): started as provider calls need them once
 * the CLI turned them on, ended when the kit is done (or by each launcher itself when the kit
 * disappears). Calls are answered in any order; while none is pending the channel does not
 * keep the kit alive.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";
import type { CallOptions, CallResult } from "../provider/call.js";
import { onInterrupt } from "../../core/interrupt.js";
import { withMallocThreshold } from "../malloc-env.js";
import { holdOpen, rejectAll } from "../helper-process.js";
import { asBuffer, type LaunchReply, type LaunchRequest } from "./messages.js";
import { removeSpool, spoolRequest } from "./spool.js";

const ENTRY = fileURLToPath(new URL("./serve.js", import.meta.url));
/**
 * The launcher stays small: a young generation of 1 MiB, and a collection it can ask for after a
 * large request (serve.ts), so the buffers of megabyte requests do not pile up before V8 collects.
 *
 * And it runs without V8's optimizing compiler (`--no-opt`). Its JavaScript per call is a few
 * small steps around a spawn, which the interpreter runs about as fast; but with the optimizer
 * on, each of the launcher's major collections threw away optimized code that held objects just
 * collected ("weak objects"), and the compiler threads rebuilt it: measured against two
 * launchers serving fuzz requests to a tiny compiled provider, about 65 compilations per 563
 * calls, and 0.3 ms of CPU per call more than without (1.72 against 1.42 ms per call; a plain
 * spawn loop spends 1.35). Nor does it need V8's helper threads (`--single-threaded`: its
 * collections are small and run on its own thread): 1.46 against 1.38 ms per call, same test.
 */
const LAUNCHER_FLAGS = ["--max-semi-space-size=1", "--expose-gc", "--no-opt", "--single-threaded"];
/** And with glibc's mmap threshold fixed (malloc-env.ts), on Linux; serve.ts gives the candidates the kit's environment back. */
const launcherEnv = (): NodeJS.ProcessEnv => (process.platform === "linux" ? withMallocThreshold(process.env) : process.env);

const NOTHING = new Uint8Array(0);

interface Pending {
  resolve: (result: CallResult) => void;
  reject: (error: Error) => void;
}

export class Launcher {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | undefined;

  get pendingCalls(): number {
    return this.pending.size;
  }

  /** The launcher process's pid (undefined if it did not start, or ended). */
  get pid(): number | undefined {
    return this.failure === undefined ? this.child.pid : undefined;
  }

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (reply: LaunchReply) => this.settle(reply));
    child.on("exit", (code, signal) => this.fail(new Error(`the launcher process ended (${signal ?? `exit code ${code}`}) with ${this.pending.size} call(s) pending`)));
    child.on("error", (error) => this.fail(error));
    this.idle();
  }

  static start(): Launcher {
    const child = fork(ENTRY, [String(process.pid)], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: LAUNCHER_FLAGS, env: launcherEnv() });
    return new Launcher(child);
  }

  /** A call; `launchers`: the pids of the kit's launcher processes, whose children are the kit's launches (leftovers.ts). */
  call(argv: readonly string[], request: Uint8Array, options: CallOptions, launchers: readonly number[] = []): Promise<CallResult> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    const spooled = spoolRequest(request);
    const message: LaunchRequest = { id, argv: [...argv], request: spooled === undefined ? request : NOTHING, options, launchers, ...(spooled !== undefined ? { spooled } : {}) };
    if (this.pending.size === 0) this.busy();
    const answer = new Promise<CallResult>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.child.send(message);
    return answer;
  }

  /**
   * Let the launcher go: it ends once the channel closes, after the candidates of calls still out
   * are gone (serve.ts). The kit's event loop waits for that exit, so no candidate outlives the kit.
   */
  close(): void {
    if (this.child.connected) this.child.disconnect();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.ref();
  }

  private settle(reply: LaunchReply): void {
    const waiting = this.pending.get(reply.id);
    if (waiting === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.idle();
    if ("error" in reply) {
      waiting.reject(new Error(reply.error));
      return;
    }
    const { outcome, stdout, stderr } = reply.result;
    waiting.resolve({ outcome, stdout: asBuffer(stdout), stderr: asBuffer(stderr) });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    rejectAll(this.pending, this.failure);
  }

  private busy(): void {
    holdOpen([this.child, this.child.channel], true);
  }

  private idle(): void {
    holdOpen([this.child, this.child.channel], false);
  }
}

/**
 * Launchers calls may be spread over: one per core, at most four. One launcher's event loop
 * spawns one process at a time (a spawn is synchronous there), so calls in flight together go to
 * launchers of their own, and the forks run side by side; past four, more `--jobs` share them
 * (each launcher holds tens of MB).
 */
export const MAX_LAUNCHERS = Math.max(1, Math.min(4, availableParallelism()));

/** What the pool needs of a launcher. */
export type LauncherLike = Pick<Launcher, "pendingCalls" | "call" | "close"> & { readonly pid?: number | undefined };

/**
 * The launchers of a kit run: a call goes to the launcher with the fewest calls pending, and a
 * new one is started (up to MAX_LAUNCHERS) when every running one is busy. A serial run
 * (`--jobs 1`) therefore uses one; `fuzz --jobs 2` two, and so does the provider suite (its default --jobs 2). A launcher that ends
 * fails every later call, as one launcher did.
 */
export class Launchers {
  private readonly running: LauncherLike[] = [];

  constructor(private readonly max: number, private readonly start: () => LauncherLike = Launcher.start) {}

  /** Launchers started so far. */
  get size(): number {
    return this.running.length;
  }

  /** The pids of the launchers running (a bench reads their CPU time; each launcher is told them all, leftovers.ts). */
  get pids(): number[] {
    return this.running.flatMap((launcher) => (launcher.pid === undefined ? [] : [launcher.pid]));
  }

  /** Starts launchers until `count` run (at most the pool's max), before the calls that will need them. */
  warm(count: number): void {
    while (this.running.length < Math.min(count, this.max)) this.running.push(this.start());
  }

  call(argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> {
    let least = this.running[0];
    for (const launcher of this.running) if (launcher.pendingCalls < (least as LauncherLike).pendingCalls) least = launcher;
    if (least === undefined || (least.pendingCalls > 0 && this.running.length < this.max)) {
      least = this.start();
      this.running.push(least);
    }
    return least.call(argv, request, options, this.pids);
  }

  close(): void {
    for (const launcher of this.running.splice(0)) launcher.close();
  }
}

let launching = false;
let shared: Launchers | undefined;

/**
 * From now on, provider calls are made by launcher processes started as calls need them: the
 * CLI turns this on; the kit's own tests, and a kit run from its sources, call in process.
 */
export function useLauncher(): void {
  // Not where the launcher's entry is not built (the kit run from its TypeScript sources).
  launching = existsSync(ENTRY);
}

/** Lets the launcher processes go (a later call starts new ones). */
export function closeLauncher(): void {
  shared?.close();
  shared = undefined;
  removeSpool();
}

// Interrupted (core/interrupt.ts), no call starts any more: the launchers go now, and with them
// the candidates of the calls still out (their callers drop those calls).
onInterrupt(closeLauncher);

/**
 * A run about to send calls `jobs` at a time starts that many launchers now (when they are on):
 * a launcher takes about 0.1 s to start (a Node process), which then passes while the kit
 * prepares its first requests (compiling its request schema, say) instead of after, when the
 * first calls wait for it. A launcher started and not used ends with the others.
 */
export function warmLaunchers(jobs: number): void {
  pool()?.warm(jobs);
}

/** Turns the launchers on and starts `count` of them now, before the kit loads the rest of itself (cli/early-launchers.ts). */
export function startLaunchers(count: number): void {
  useLauncher();
  warmLaunchers(count);
}

/** The pids of the launcher processes running now (a bench reads their CPU time). */
export function launcherPids(): number[] {
  return shared?.pids ?? [];
}

/** Where calls go: the launchers when they are on, else undefined (call in process). */
export function currentLauncher(): Pick<Launchers, "call"> | undefined {
  return pool();
}

/** The launchers when they are on (made on first use), else undefined. */
function pool(): Launchers | undefined {
  if (launching) shared ??= new Launchers(MAX_LAUNCHERS);
  return shared;
}

/**
 * The kit's side of the launcher process (serve.ts): started on the first provider call once
 * the CLI turned it on, ended when the kit is done (or by the launcher itself when the kit
 * disappears). Calls are answered in any order; while none is pending the channel does not
 * keep the kit alive.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CallOptions, CallResult } from "../provider/call.js";
import { asBuffer, type LaunchReply, type LaunchRequest } from "./messages.js";

const ENTRY = fileURLToPath(new URL("./serve.js", import.meta.url));
/**
 * The launcher stays small: a young generation of 1 MiB, and a collection it can ask for after a
 * large request (serve.ts), so the buffers of megabyte requests do not pile up before V8 collects.
 */
const LAUNCHER_FLAGS = ["--max-semi-space-size=1", "--expose-gc"];

interface Pending {
  resolve: (result: CallResult) => void;
  reject: (error: Error) => void;
}

export class Launcher {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (reply: LaunchReply) => this.settle(reply));
    child.on("exit", (code, signal) => this.fail(new Error(`the launcher process ended (${signal ?? `exit code ${code}`}) with ${this.pending.size} call(s) pending`)));
    child.on("error", (error) => this.fail(error));
    this.idle();
  }

  /** A launcher, or undefined where its entry is not built (the kit run from its TypeScript sources). */
  static start(): Launcher | undefined {
    if (!existsSync(ENTRY)) return undefined;
    const child = fork(ENTRY, [String(process.pid)], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: LAUNCHER_FLAGS });
    return new Launcher(child);
  }

  call(argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.nextId++;
    const message: LaunchRequest = { id, argv: [...argv], request, options };
    if (this.pending.size === 0) this.busy();
    const answer = new Promise<CallResult>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.child.send(message);
    return answer;
  }

  /** Let the launcher go: it ends once the channel closes. */
  close(): void {
    if (this.child.connected) this.child.disconnect();
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
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

let launching = false;
let shared: Launcher | undefined;

/**
 * From now on, provider calls are made by a launcher process started on the first call: the
 * CLI turns this on; the kit's own tests, and a kit run from its sources, call in process.
 */
export function useLauncher(): void {
  launching = true;
}

/** Lets the launcher process go (a later call starts a new one). */
export function closeLauncher(): void {
  shared?.close();
  shared = undefined;
}

/** The launcher calls go to, started now if it is on and not running; undefined: call in process. */
export function currentLauncher(): Launcher | undefined {
  if (launching && shared === undefined) {
    shared = Launcher.start();
    launching = shared !== undefined;
  }
  return shared;
}

import { MAX_MESSAGE_BYTES, type CallOutcome } from "../../core/provider/types.js";
import { DEFAULT_KILL_GRACE_MS, runProcess, type ProcessResult, type RunProcessOptions } from "../process.js";
import { currentLauncher } from "../launcher/client.js";
import { nativeCall } from "../native/select.js";

export const STDOUT_CAP = MAX_MESSAGE_BYTES + 1;
export const STDERR_CAP = 256 * 1024;

export interface CallOptions {
  timeoutMs: number;
  killGraceMs?: number;
  env?: Record<string, string>;
  cwd?: string;
}

export interface CallResult {
  outcome: CallOutcome;
  stdout: Uint8Array;
  stderr: Uint8Array;
}

/** How a provider call is made: callProvider itself, or a stand-in that asks the thread that spawns. */
export type ProviderCall = (argv: readonly string[], request: Uint8Array, options: CallOptions) => Promise<CallResult>;

/** One provider process: the request bytes on stdin, stdout capped at 1 MiB + 1, stderr at 256 KiB. */
export function callProvider(argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> {
  const native = nativeCall();
  if (native !== undefined) return native(argv, request, options);
  const launcher = currentLauncher();
  return launcher === undefined ? callInProcess(argv, request, options) : launcher.call(argv, request, options);
}

/** The process a provider call runs: the request on stdin, the protocol's caps (the native spawner runs the same). */
export function callProcess(argv: readonly string[], request: Uint8Array, options: CallOptions): RunProcessOptions {
  return {
    argv,
    stdin: request,
    timeoutMs: options.timeoutMs,
    killGraceMs: options.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    stdoutCap: STDOUT_CAP,
    stderrCap: STDERR_CAP,
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  };
}

/** A process's result as a call's: its outcome, and its output apart. */
export function callResultOf(result: ProcessResult): CallResult {
  const { stdout, stderr, ...outcome } = result;
  return { outcome, stdout, stderr };
}

/** callProvider on this process's own event loop. */
export async function callInProcess(argv: readonly string[], request: Uint8Array, options: CallOptions): Promise<CallResult> {
  return callResultOf(await runProcess(callProcess(argv, request, options)));
}

/** What the kit and its launcher process (launcher/serve.ts) say to each other over the IPC channel. */
import type { CallOptions, CallResult } from "../provider/call.js";

export interface LaunchRequest {
  id: number;
  argv: string[];
  /** The request's bytes; empty when they were spooled. */
  request: Uint8Array;
  /** The file the request's bytes are in, for a big request (spool.ts). */
  spooled?: string;
  options: CallOptions;
  /** The pids of the kit's launcher processes (leftovers.ts: knowLaunchers). */
  launchers: readonly number[];
}

export type LaunchReply = { id: number; result: CallResult } | { id: number; error: string };

/** Bytes that crossed the channel (a plain Uint8Array) as the Buffer they were, without a copy. */
export const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

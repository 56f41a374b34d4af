/** What the kit and its launcher process (launcher/serve.ts) say to each other over the IPC channel. */
import type { CallOptions, CallResult } from "../provider/call.js";

export interface LaunchRequest {
  id: number;
  argv: string[];
  request: Uint8Array;
  options: CallOptions;
}

export type LaunchReply = { id: number; result: CallResult } | { id: number; error: string };

/**
 * The framing between the kit and its native spawner (native/spawner.c documents it): a call
 * frame out, a result frame back, integers little-endian, strings length-prefixed.
 */
import { constants } from "node:os";

/** What a call frame carries. */
export interface CallFrame {
  id: number;
  timeoutMs: number;
  killGraceMs: number;
  stdoutCap: number;
  stderrCap: number;
  killOnStdoutCap: boolean;
  /** env replaces the spawner's own environment (a call that names its own); else it is added to it. */
  replaceEnv: boolean;
  path: string;
  cwd: string;
  marker: string;
  argv: readonly string[];
  env: readonly string[];
  stdin: Uint8Array;
}

/** A leftover as the spawner saw it: the kit formats its command (proc-read.ts). */
export interface RawLeftover {
  pid: number;
  foundBy: number;
  holds: number;
  ended: number;
  comm: string;
  cmdline: Buffer;
}

/** What a result frame carries. */
export interface ResultFrame {
  id: number;
  spawnErrno: number;
  exitCode: number | null;
  signal: number;
  timedOut: boolean;
  stdoutCapped: boolean;
  stderrCapped: boolean;
  killedByKit: boolean;
  procScan: boolean;
  stdinFinished: boolean;
  stdinErrno: number;
  durationMs: number;
  stdoutBytes: number;
  stderrBytes: number;
  inodes: [number, number, number];
  dropped: number;
  leftovers: RawLeftover[];
  stdout: Buffer;
  stderr: Buffer;
}

export const CALL_KIND = 1;
export const HEADER_BYTES = 16;

/** The frame's parts: a header and fields in one buffer, and the request's bytes as they are (not copied). */
export function encodeCall(call: CallFrame): Buffer[] {
  const strings = [call.path, call.cwd, call.marker].map((s) => Buffer.from(s));
  const argv = call.argv.map((s) => Buffer.from(s));
  const env = call.env.map((s) => Buffer.from(s));
  const textBytes = [...strings, ...argv, ...env].reduce((n, b) => n + 4 + b.length, 0);
  const fixed = HEADER_BYTES + 20 + textBytes + 8 + 8;
  const head = Buffer.allocUnsafe(fixed);
  let at = 0;
  const u32 = (v: number): void => {
    at = head.writeUInt32LE(v >>> 0, at);
  };
  const bytes = (b: Buffer): void => {
    u32(b.length);
    at += b.copy(head, at);
  };
  u32(CALL_KIND);
  u32(call.id);
  head.writeBigUInt64LE(BigInt(fixed - HEADER_BYTES + call.stdin.byteLength), at);
  at += 8;
  for (const v of [call.timeoutMs, call.killGraceMs, call.stdoutCap, call.stderrCap]) u32(Math.min(Math.max(0, Math.floor(v)), 0xffff_ffff));
  u32((call.killOnStdoutCap ? 1 : 0) | (call.replaceEnv ? 2 : 0));
  for (const s of strings) bytes(s);
  u32(argv.length);
  for (const s of argv) bytes(s);
  u32(env.length);
  for (const s of env) bytes(s);
  head.writeBigUInt64LE(BigInt(call.stdin.byteLength), at);
  return call.stdin.byteLength === 0 ? [head] : [head, Buffer.from(call.stdin.buffer, call.stdin.byteOffset, call.stdin.byteLength)];
}

/** Reads one result body (after its header). */
export function decodeResult(id: number, body: Buffer): ResultFrame {
  let at = 0;
  const u32 = (): number => {
    const v = body.readUInt32LE(at);
    at += 4;
    return v;
  };
  const i32 = (): number => {
    const v = body.readInt32LE(at);
    at += 4;
    return v;
  };
  const u64 = (): number => {
    const v = Number(body.readBigUInt64LE(at));
    at += 8;
    return v;
  };
  const bytes = (): Buffer => {
    const n = u32();
    const b = body.subarray(at, at + n);
    at += n;
    return b;
  };
  const spawnErrno = u32();
  const code = i32();
  const signal = i32();
  const flags = u32();
  const stdinErrno = i32();
  const durationMs = body.readDoubleLE(at);
  at += 8;
  const stdoutBytes = u64();
  const stderrBytes = u64();
  const inodes: [number, number, number] = [u64(), u64(), u64()];
  const dropped = u32();
  const count = u32();
  const leftovers: RawLeftover[] = [];
  for (let i = 0; i < count; i++) {
    const pid = u32();
    const [foundBy, holds, ended] = [body[at] as number, body[at + 1] as number, body[at + 2] as number];
    at += 3;
    const comm = bytes().toString("latin1");
    leftovers.push({ pid, foundBy, holds, ended, comm, cmdline: Buffer.from(bytes()) });
  }
  // The kept output is copied out of the frame, so a result does not pin the frame's buffer.
  const stdout = Buffer.from(bytes());
  const stderr = Buffer.from(bytes());
  return {
    id, spawnErrno, exitCode: code < 0 ? null : code, signal, stdinErrno, durationMs, stdoutBytes, stderrBytes, inodes, dropped, leftovers, stdout, stderr,
    timedOut: (flags & 1) !== 0, stdoutCapped: (flags & 2) !== 0, stderrCapped: (flags & 4) !== 0, killedByKit: (flags & 8) !== 0,
    procScan: (flags & 16) !== 0, stdinFinished: (flags & 32) !== 0,
  };
}

const errnoNames = new Map<number, string>(Object.entries(constants.errno).map(([name, n]) => [n, name]));
const signalNames = new Map<number, string>(Object.entries(constants.signals).map(([name, n]) => [n, name]));

/** An errno's name as Node gives it (EPIPE), or E<number>. */
export const errnoName = (n: number): string => errnoNames.get(n) ?? `E${n}`;

/** A signal's name as Node gives it (SIGKILL), or SIG<number>. */
export const signalName = (n: number): string => signalNames.get(n) ?? `SIG${n}`;

/**
 * Cuts frames out of the spawner's output as it comes, calling `onFrame` with each whole one.
 * Chunks are kept until a frame is whole, then joined once.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private held = 0;

  constructor(private readonly onFrame: (kind: number, id: number, body: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.held += chunk.length;
    for (;;) {
      if (this.held < HEADER_BYTES) return;
      const head = this.chunks.length === 1 || (this.chunks[0] as Buffer).length >= HEADER_BYTES ? (this.chunks[0] as Buffer) : this.join();
      const length = Number(head.readBigUInt64LE(8));
      if (this.held < HEADER_BYTES + length) return;
      const all = this.join();
      const kind = all.readUInt32LE(0);
      const id = all.readUInt32LE(4);
      const body = all.subarray(HEADER_BYTES, HEADER_BYTES + length);
      const rest = all.subarray(HEADER_BYTES + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.held = rest.length;
      this.onFrame(kind, id, body);
    }
  }

  private join(): Buffer {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.held);
    this.chunks = [all];
    return all;
  }
}

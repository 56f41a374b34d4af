/**
 * Stdout framing for live agent sessions: split a byte stream into LF-terminated
 * lines, as the Desktop does. Only LF ends a line; a CR before it stays in the line
 * so framing checks can see it. The unbroken pending buffer is bounded: the first
 * line longer than `maxLineBytes` is reported once as `oversize` (the Desktop's
 * `runtime_output_oversize`), after which the splitter is latched and drops all
 * further input — the caller stops the runtime.
 *
 * Cost is linear in the bytes pushed: each new chunk is scanned once for LF, and a
 * line spread over several chunks is joined once, when its LF arrives.
 */

export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
export const DEFAULT_OVERSIZE_HEAD_BYTES = 4096;

export interface LineSplitterOptions {
  /** Longest accepted line, in bytes, without its LF. */
  maxLineBytes: number;
  /** Bytes of an oversize line kept in `oversize.head` (default 4096; never more than maxLineBytes + 1). */
  headBytes?: number;
}

export interface Oversize {
  /** The first min(headBytes, maxLineBytes + 1) bytes of the line. */
  head: Uint8Array;
  /** Bytes of the line seen when the guard tripped (> maxLineBytes; depends on chunking). */
  bytes: number;
}

export interface PushResult {
  /** Complete lines without their LF, in order; all of them precede `oversize` in the stream. */
  lines: Uint8Array[];
  oversize?: Oversize;
}

const LF = 0x0a;

export class LineSplitter {
  readonly maxLineBytes: number;
  readonly headBytes: number;
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private latched = false;
  private dropped = 0;

  constructor(opts: LineSplitterOptions) {
    if (!Number.isSafeInteger(opts.maxLineBytes) || opts.maxLineBytes < 0) {
      throw new RangeError(`maxLineBytes must be a non-negative integer, got ${opts.maxLineBytes}`);
    }
    const head = opts.headBytes ?? DEFAULT_OVERSIZE_HEAD_BYTES;
    if (!Number.isSafeInteger(head) || head < 0) throw new RangeError(`headBytes must be a non-negative integer, got ${head}`);
    this.maxLineBytes = opts.maxLineBytes;
    this.headBytes = Math.min(head, opts.maxLineBytes + 1);
  }

  /** Bytes held for the current unterminated line (≤ maxLineBytes). */
  get pendingBytes(): number {
    return this.pendingLength;
  }

  /** True once an oversize line was reported; later input is dropped. */
  get oversized(): boolean {
    return this.latched;
  }

  /** Bytes dropped after the oversize report (the oversize line itself excluded). */
  get droppedBytes(): number {
    return this.dropped;
  }

  push(chunk: Uint8Array): PushResult {
    const lines: Uint8Array[] = [];
    if (this.latched) {
      this.dropped += chunk.byteLength;
      return { lines };
    }
    let start = 0;
    while (start < chunk.byteLength) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.byteLength : lf;
      const lineLength = this.pendingLength + (end - start);
      if (lineLength > this.maxLineBytes) {
        const oversize = { head: this.headOf(chunk.subarray(start, end)), bytes: lineLength };
        this.latched = true;
        this.dropped += chunk.byteLength - end;
        this.pending = [];
        this.pendingLength = 0;
        return { lines, oversize };
      }
      if (lf === -1) {
        // Copy the tail: the caller may reuse its chunk, and a small tail should not pin a large one.
        if (end > start) this.pending.push(chunk.slice(start, end));
        this.pendingLength = lineLength;
        break;
      }
      lines.push(this.take(chunk.subarray(start, end)));
      start = lf + 1;
    }
    return { lines };
  }

  /** The unterminated rest (undefined when there is none, or after an oversize report); resets the splitter. */
  end(): Uint8Array | undefined {
    if (this.latched || this.pendingLength === 0) return undefined;
    return this.take(new Uint8Array(0));
  }

  /** Pending bytes + tail as one line, and clear pending. */
  private take(tail: Uint8Array): Uint8Array {
    if (this.pending.length === 0) return tail.slice();
    const line = join([...this.pending, tail], this.pendingLength + tail.byteLength);
    this.pending = [];
    this.pendingLength = 0;
    return line;
  }

  private headOf(tail: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = [];
    let room = this.headBytes;
    for (const part of [...this.pending, tail]) {
      if (room <= 0) break;
      const piece = part.subarray(0, room);
      parts.push(piece);
      room -= piece.byteLength;
    }
    return join(parts, this.headBytes - room);
  }
}

function join(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * A byte collector that keeps at most `cap` bytes, counts everything it was
 * offered and never refuses data, so the producing pipe is always drained.
 * Chunks are stored in a list and joined once, so cost is O(total bytes).
 */
export class CappedBuffer {
  readonly cap: number;
  private chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;
  private joined: Buffer | null = null;

  constructor(cap: number) {
    if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError(`cap must be a non-negative integer, got ${cap}`);
    this.cap = cap;
  }

  /** Offer a chunk; returns the number of its bytes that were kept. */
  push(chunk: Uint8Array): number {
    const length = chunk.byteLength;
    this.seen += length;
    const room = this.cap - this.kept;
    if (room <= 0 || length === 0) return 0;
    const take = Math.min(room, length);
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, take);
    // A partial tail is copied so the kept bytes do not pin a large foreign chunk.
    this.chunks.push(take === length ? view : Buffer.from(view));
    this.kept += take;
    this.joined = null;
    return take;
  }

  /** Bytes offered so far, including those beyond the cap. */
  get totalBytes(): number {
    return this.seen;
  }

  /** Bytes kept (≤ cap). */
  get keptBytes(): number {
    return this.kept;
  }

  /** True once more than `cap` bytes were offered. */
  get capped(): boolean {
    return this.seen > this.cap;
  }

  /** The kept bytes as one Buffer (joined once and cached). */
  toBuffer(): Buffer {
    if (this.joined === null) {
      this.joined = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.kept);
      this.chunks = this.kept === 0 ? [] : [this.joined];
    }
    return this.joined;
  }
}

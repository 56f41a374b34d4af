import fc from "fast-check";

/** Cases generated per step: enough to amortise fast-check's set-up, few enough to keep memory flat. */
export const CASE_CHUNK = 4;

/**
 * The cases of one seed, generated a chunk at a time as they are asked for instead of all at
 * once: a long campaign holds two chunks, not every case. Case i is exactly the i-th case of
 * `fc.sample(arb, { seed, numRuns })` (fast-check's path replay starts the sequence at i).
 */
export class SeededCases<T> {
  private chunks = new Map<number, T[]>();

  constructor(private readonly arb: fc.Arbitrary<T>, private readonly seed: number, readonly length: number) {}

  at(index: number): T {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) throw new RangeError(`case ${index} is outside 0..${this.length - 1}`);
    const chunk = Math.floor(index / CASE_CHUNK);
    let cases = this.chunks.get(chunk);
    if (cases === undefined) {
      const first = chunk * CASE_CHUNK;
      cases = fc.sample(this.arb, { seed: this.seed, path: String(first), numRuns: Math.min(CASE_CHUNK, this.length - first) });
      // Cases are taken in order, a few at a time: older chunks are done with.
      for (const old of this.chunks.keys()) if (old < chunk - 1) this.chunks.delete(old);
      this.chunks.set(chunk, cases);
    }
    return cases[index - chunk * CASE_CHUNK] as T;
  }
}

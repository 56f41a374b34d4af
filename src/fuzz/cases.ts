import fc from "fast-check";

/** Thrown into fast-check's run to end it when the campaign stops before its last case. */
class Stopped extends Error {}

export interface Taken<T> {
  value: T;
  /** The case's index in the whole sequence of the seed. */
  index: number;
}

/** What a campaign takes its cases from. */
export interface CaseSource<T> {
  /** The next case, or undefined when there is none left. */
  take(): Promise<Taken<T> | undefined>;
  /** No further cases are wanted. */
  stop(): void;
}

/** Cases made beforehand, handed over in order (indices from `from`). */
export function listedCases<T>(cases: readonly T[], from = 0): CaseSource<T> {
  let next = 0;
  let stopped = false;
  return {
    take: () => Promise.resolve(stopped || next >= cases.length ? undefined : { value: cases[next] as T, index: from + next++ }),
    stop: () => {
      stopped = true;
    },
  };
}

/**
 * The cases `from` to `to - 1` of one seed, in order, each generated when the one before was
 * taken: fast-check's own run (fc.check of an async property over the arbitrary, with the seed,
 * started at path `from`) hands every case over and waits until it is taken. Case i is exactly
 * the i-th case of that run, which is what the shrink step replays with path i, and of
 * `fc.sample(arb, { seed, path: String(i) })`.
 *
 * One run for the whole range: reaching case `from` costs fast-check one step per case skipped,
 * once, and every later case one step. Sampling each case (or chunk) by its path instead costs
 * `i` steps for case i, which grows with the square of a campaign's length and, for the last
 * shard of a long one, dominates it. At most one case waits, generated, to be taken.
 */
export class CaseStream<T> implements CaseSource<T> {
  private offered: { value: T; taken: () => void } | undefined;
  /** Takers waiting for a case, first come first served. */
  private readonly waiting: ((taken: Taken<T> | undefined) => void)[] = [];
  private ended = false;
  private stopped = false;
  private failure: unknown;
  private next: number;

  constructor(arb: fc.Arbitrary<T>, seed: number, from: number, to: number) {
    this.next = from;
    if (to <= from) {
      this.ended = true;
      return;
    }
    const property = fc.asyncProperty(arb, (value) => this.hand(value));
    void fc.check(property, { seed, path: String(from), numRuns: to - from, endOnFailure: true }).then(
      (details) => this.end(details.failed && !(details.errorInstance instanceof Stopped) ? details.errorInstance : undefined),
      (error: unknown) => this.end(error),
    );
  }

  /** The next case, or undefined once the range is done or stop() was called. Rejects if generating a case threw. */
  take(): Promise<Taken<T> | undefined> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.offered !== undefined) {
      const { value, taken } = this.offered;
      this.offered = undefined;
      taken();
      return Promise.resolve({ value, index: this.next++ });
    }
    if (this.ended || this.stopped) return Promise.resolve(undefined);
    return new Promise<Taken<T> | undefined>((resolve, reject) => {
      this.waiting.push((taken) => (this.failure !== undefined ? reject(this.failure) : resolve(taken)));
    });
  }

  /** No further cases: the case waiting is dropped and fast-check's run ends. */
  stop(): void {
    this.stopped = true;
    const offered = this.offered;
    this.offered = undefined;
    offered?.taken();
    this.release();
  }

  /** Every taker still waiting gets no case (or the failure). */
  private release(): void {
    for (const waiting of this.waiting.splice(0)) waiting(undefined);
  }

  private hand(value: T): Promise<void> {
    if (this.stopped) return Promise.reject(new Stopped("stopped"));
    const waiting = this.waiting.shift();
    if (waiting !== undefined) {
      waiting({ value, index: this.next++ });
      return Promise.resolve();
    }
    return new Promise<void>((taken) => {
      this.offered = { value, taken };
    });
  }

  private end(failure: unknown): void {
    this.ended = true;
    if (failure !== undefined) this.failure = failure instanceof Error ? failure : new Error(String(failure));
    this.release();
  }
}

/** Cases `from` to `to - 1` of a seed, all at once (for a bench or a test; a campaign takes them one by one). */
export async function casesOf<T>(arb: fc.Arbitrary<T>, seed: number, from: number, to: number): Promise<T[]> {
  const stream = new CaseStream(arb, seed, from, to);
  const cases: T[] = [];
  for (let taken = await stream.take(); taken !== undefined; taken = await stream.take()) cases.push(taken.value);
  return cases;
}

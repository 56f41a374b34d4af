import type { CaseSource } from "./cases.js";

/**
 * Runs `work` over items with at most `jobs` at once, in index order; stops starting new ones
 * once `stop(nextIndex)` says so (a deadline passed, or a failure at a lower index is known).
 */
export async function pool<T>(items: readonly T[], jobs: number, work: (item: T, index: number) => Promise<void>, stop: (next: number) => boolean): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stop(next)) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
}

/**
 * Runs `work` over the cases a source hands out, at most `jobs` at once, in index order; a case
 * taken when `stop(index)` says so is not run, and the source is stopped (it may have no end:
 * a time box). The source is stopped when this returns.
 */
export async function poolOf<T>(source: CaseSource<T>, jobs: number, work: (item: T, index: number) => Promise<void>, stop: (index: number) => boolean): Promise<void> {
  const worker = async (): Promise<void> => {
    for (;;) {
      const taken = await source.take();
      if (taken === undefined) return;
      if (stop(taken.index)) {
        source.stop();
        return;
      }
      await work(taken.value, taken.index);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  } finally {
    source.stop();
  }
}

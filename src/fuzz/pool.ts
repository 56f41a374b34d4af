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

/** Batches timed per figure; the figure is their median. */
const BATCHES = 5;

/**
 * Items per second of `run`, which handles items [from, to) of a set of `count` items. Batches cycle
 * through the set. Sizing a batch to about `batchMs` warms the code up; then the median rate of
 * {@link BATCHES} timed batches.
 */
export function medianRate(run: (from: number, to: number) => void, count: number, batchMs: number): number {
  let next = 0;
  const time = (size: number): number => {
    const start = performance.now();
    for (let left = size; left > 0;) {
      const to = Math.min(count, next + left);
      run(next, to);
      left -= to - next;
      next = to === count ? 0 : to;
    }
    return performance.now() - start;
  };
  let size = 1;
  time(size); // The first call may build what the library builds on first use: not a rate.
  let ms = time(size);
  while (ms < batchMs / 4) {
    size *= 2;
    ms = time(size);
  }
  // Size a batch to batchMs, then size it again from a batch of about that size, now warm.
  for (let round = 0; round < 2; round++) {
    size = Math.max(1, Math.round((size * batchMs) / ms));
    ms = time(size);
  }
  const rates = Array.from({ length: BATCHES }, () => (size * 1000) / time(size)).sort((a, b) => a - b);
  return rates[BATCHES >> 1]!;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

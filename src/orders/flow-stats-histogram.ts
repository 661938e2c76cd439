// Step durations as kept for percentiles: the durations themselves up to 10,000 (exact), log buckets of ratio 1.05 beyond (within 5 % above).

/** Durations a stats row keeps as they are; past this it keeps only buckets (contract 17: exact up to 10,000 runs). */
export const EXACT_SAMPLES = 10_000;

/** Bucket ratio: a bucket's upper bound is at most 5 % above any duration in it. */
const RATIO = 1.05;
const LOG_RATIO = Math.log(RATIO);

/** The bucket of zero (and negative, clock-skewed) durations: its bound is 0. */
const ZERO_BUCKET = -1;

/** Bucket maps as stored: `{ "<bucket>": count }`. */
export type Buckets = Record<string, number>;

/** The bucket of `ms`: b such that 1.05^(b-1) < ms <= 1.05^b, or -1 for 0. */
export function bucketOf(ms: number): number {
  if (ms <= 0) return ZERO_BUCKET;
  let b = Math.ceil(Math.log(ms) / LOG_RATIO);
  // Floating point can put a value one bucket off at a boundary: settle it on the definition.
  while (RATIO ** b < ms) b += 1;
  while (b > 0 && RATIO ** (b - 1) >= ms) b -= 1;
  return b;
}

/** The largest whole millisecond a bucket holds: every duration in it is at most this, and this is under 1.05 times any of them. */
export function bucketBound(b: number): number {
  return b === ZERO_BUCKET ? 0 : Math.floor(RATIO ** b);
}

/** Adds durations to a bucket map (in place) and returns it. */
export function addToBuckets(buckets: Buckets, durations: Iterable<number>): Buckets {
  for (const ms of durations) {
    const key = String(bucketOf(ms));
    buckets[key] = (buckets[key] ?? 0) + 1;
  }
  return buckets;
}

/** Nearest rank: the smallest value with at least p of all values at or below it (rank ceil(p * n), 1-based). */
export function nearestRank(p: number, n: number): number {
  return Math.min(n, Math.max(1, Math.ceil(p * n)));
}

export interface Percentiles {
  p50: number | null;
  p95: number | null;
  max: number | null;
}

/** Exact nearest-rank p50, p95 and max of durations (any order). */
export function exactPercentiles(durations: readonly number[]): Percentiles {
  if (durations.length === 0) return { p50: null, p95: null, max: null };
  const sorted = [...durations].sort((a, b) => a - b);
  const n = sorted.length;
  return { p50: sorted[nearestRank(0.5, n) - 1], p95: sorted[nearestRank(0.95, n) - 1], max: sorted[n - 1] };
}

/**
 * Nearest-rank p50 and p95 from buckets: the bound of the bucket holding the rank, never above the exact `max`.
 * The true value is in that bucket, so the answer is at or above it and less than 5 % above it.
 */
export function bucketPercentiles(buckets: Buckets, max: number | null): Percentiles {
  const entries = Object.entries(buckets)
    .map(([k, n]) => [Number(k), Number(n)] as const)
    .filter(([k, n]) => Number.isInteger(k) && n > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return { p50: null, p95: null, max };
  const at = (p: number): number => {
    const rank = nearestRank(p, total);
    let seen = 0;
    for (const [b, n] of entries) {
      seen += n;
      if (seen >= rank) return max === null ? bucketBound(b) : Math.min(bucketBound(b), max);
    }
    return max ?? 0;
  };
  return { p50: at(0.5), p95: at(0.95), max };
}

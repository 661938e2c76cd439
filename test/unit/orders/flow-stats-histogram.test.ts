// Percentiles of the flow stats (contract 17): nearest rank, exact from the durations themselves, and from log buckets at or above the exact value and less than 5 % above it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addToBuckets, bucketBound, bucketOf, bucketPercentiles, exactPercentiles, nearestRank } from '../../../src/orders/flow-stats-histogram.js';

describe('nearest rank', () => {
  it('is the smallest value with at least p of all values at or below it', () => {
    expect(exactPercentiles([30, 10, 60])).toEqual({ p50: 30, p95: 60, max: 60 });
    expect(exactPercentiles([1, 2, 3, 4])).toEqual({ p50: 2, p95: 4, max: 4 });
    expect(exactPercentiles(Array.from({ length: 100 }, (_, i) => i + 1))).toEqual({ p50: 50, p95: 95, max: 100 });
    expect(exactPercentiles([])).toEqual({ p50: null, p95: null, max: null });
    expect([nearestRank(0.5, 1), nearestRank(0.95, 20), nearestRank(0.95, 21)]).toEqual([1, 19, 20]);
  });
});

describe('log buckets', () => {
  it('every whole millisecond falls in a bucket whose bound is at or above it and less than 5 % above it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000_000 }), (ms) => {
        const bound = bucketBound(bucketOf(ms));
        expect(bound).toBeGreaterThanOrEqual(ms);
        expect(bound).toBeLessThan(ms * 1.05);
      }),
      { numRuns: 2_000 },
    );
    expect(bucketBound(bucketOf(0))).toBe(0);
  });

  it('bucket percentiles are at or above the exact nearest rank, less than 5 % above, and never above the exact max', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2_000_000_000 }), { minLength: 1, maxLength: 400 }), (durations) => {
        const exact = exactPercentiles(durations);
        const approx = bucketPercentiles(addToBuckets({}, durations), exact.max);
        expect(approx.max).toBe(exact.max);
        for (const p of ['p50', 'p95'] as const) {
          expect(approx[p]!).toBeGreaterThanOrEqual(exact[p]!);
          expect(approx[p]!).toBeLessThanOrEqual(exact[p] === 0 ? 0 : exact[p]! * 1.05);
          expect(approx[p]!).toBeLessThanOrEqual(exact.max!);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('buckets of several rows add up (the worker merges them per hour, the answer over a range)', () => {
    const a = addToBuckets({}, [5, 5, 100]);
    const b = addToBuckets({}, [5, 1_000]);
    const merged: Record<string, number> = { ...a };
    for (const [k, n] of Object.entries(b)) merged[k] = (merged[k] ?? 0) + n;
    expect(bucketPercentiles(merged, 1_000)).toEqual(bucketPercentiles(addToBuckets({}, [5, 5, 100, 5, 1_000]), 1_000));
    expect(bucketPercentiles({}, null)).toEqual({ p50: null, p95: null, max: null });
  });
});

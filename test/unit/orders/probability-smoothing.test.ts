// assess_order's smoothing (docs/agents.md "assess_order"): Laplace and cohort shrinkage sum to 1; levels spread a Beta.
import { describe, expect, it } from 'vitest';
import { betaBinomialLevels, logGamma, normalise, shrinkThroughCohorts } from '../../../src/orders/probability-smoothing.js';

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('shrinkThroughCohorts', () => {
  it('is Laplace’s add-one rule for one cohort with a uniform prior worth one observation per category', () => {
    const { probabilities, concentration } = shrinkThroughCohorts([1, 1], 2, [[3, 1]]);
    expect(probabilities[0]).toBeCloseTo(4 / 6, 12);
    expect(concentration).toEqual([4, 2]);
  });

  it('answers the prior when no cohort has items, and a cohort without items changes nothing', () => {
    expect(shrinkThroughCohorts([1, 1, 1], 3, []).probabilities).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(shrinkThroughCohorts([1, 1], 2, [[5, 5], [0, 0]])).toEqual(shrinkThroughCohorts([1, 1], 2, [[5, 5]]));
  });

  it('keeps a specific cohort with few items near the broader estimate; many items speak for themselves', () => {
    const few = shrinkThroughCohorts([1, 1], 2, [[90, 10], [0, 1]]).probabilities[0];
    const many = shrinkThroughCohorts([1, 1], 2, [[90, 10], [0, 200]]).probabilities[0];
    expect(few).toBeGreaterThan(0.55);
    expect(many).toBeLessThan(0.02);
  });

  it('always sums to 1 over any number of categories', () => {
    for (const k of [2, 3, 7, 255]) {
      const counts = Array.from({ length: k }, (_, i) => (i * 7) % 5);
      expect(sum(shrinkThroughCohorts(new Array(k).fill(1), k, [counts, counts.slice().reverse()]).probabilities)).toBeCloseTo(1, 12);
    }
  });
});

describe('betaBinomialLevels', () => {
  it('spreads nothing-known (Beta(1, 1)) evenly over the levels', () => {
    for (const p of betaBinomialLevels(1, 1, 5)) expect(p).toBeCloseTo(0.2, 10);
  });

  it('concentrates strong evidence near the level of the mean, lowest level first', () => {
    const low = betaBinomialLevels(2, 200, 3);
    expect(low[0]).toBeGreaterThan(0.95);
    const high = betaBinomialLevels(200, 2, 3);
    expect(high[2]).toBeGreaterThan(0.95);
  });

  it('puts everything on one end for an observed answer and sums to 1 for every level count from 2 to 10', () => {
    expect(betaBinomialLevels(1, 0, 4)).toEqual([0, 0, 0, 1]);
    expect(betaBinomialLevels(0, 1, 4)).toEqual([1, 0, 0, 0]);
    for (let levels = 2; levels <= 10; levels++) expect(sum(betaBinomialLevels(3.4, 0.6, levels))).toBeCloseTo(1, 12);
  });
});

describe('helpers', () => {
  it('logGamma matches factorials', () => {
    expect(Math.exp(logGamma(5))).toBeCloseTo(24, 8);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 10);
  });

  it('normalise turns nothing positive into the uniform distribution', () => {
    expect(normalise([0, 0, 0, 0])).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(normalise([1, 3])).toEqual([0.25, 0.75]);
  });
});

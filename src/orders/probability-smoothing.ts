// Smoothed probabilities for assess_order: counts shrunk cohort by cohort (Beta/Dirichlet prior), and a Beta spread over ordered levels.

/** A smoothed distribution over categories and the Dirichlet parameters behind it (how much evidence it rests on). */
export interface SmoothedEstimate {
  /** Posterior mean per category, in the categories' order; sums to 1. */
  probabilities: number[];
  /** Dirichlet parameters (pseudo-counts plus counts) of the last cohort that had items; their sum is the weight of the evidence. */
  concentration: number[];
}

/** `values` scaled to sum to 1; all zero (or none positive) gives the uniform distribution. */
export function normalise(values: readonly number[]): number[] {
  const clean = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const sum = clean.reduce((s, v) => s + v, 0);
  if (sum <= 0) return values.map(() => 1 / values.length);
  return clean.map((v) => v / sum);
}

/**
 * Hierarchical additive smoothing. Starts from `prior` (a distribution) held as `strength`
 * pseudo-observations, then takes each cohort from the broadest to the most specific: its counts
 * are added to `strength` pseudo-observations spread as the estimate so far, so a specific cohort
 * with few items stays close to the broader one and one with many items speaks for itself. A cohort
 * without items changes nothing. With a uniform prior and `strength` equal to the number of
 * categories, one cohort is Laplace's add-one rule (a Beta(1, 1) prior for two categories).
 */
export function shrinkThroughCohorts(prior: readonly number[], strength: number, cohorts: readonly (readonly number[])[]): SmoothedEstimate {
  let mean = normalise(prior);
  let concentration = mean.map((p) => p * strength);
  for (const counts of cohorts) {
    const n = counts.reduce((s, c) => s + c, 0);
    if (n <= 0) continue;
    concentration = mean.map((p, i) => (counts[i] ?? 0) + strength * p);
    mean = normalise(concentration);
  }
  return { probabilities: mean, concentration };
}

/** Lanczos approximation of ln Γ(x) for x > 0 (g = 7, 9 terms; about 15 significant digits). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * How a yes-probability with Beta(a, b) uncertainty spreads over `levels` ordered levels, lowest
 * first: the Beta-binomial distribution of the number of "yes" among `levels - 1` trials. Beta(1, 1)
 * (nothing known) gives every level the same share; more evidence concentrates the mass around
 * the level of the mean. `a = 0` puts everything on the lowest level, `b = 0` on the highest.
 */
export function betaBinomialLevels(a: number, b: number, levels: number): number[] {
  const n = levels - 1;
  if (a <= 0 && b <= 0) return new Array<number>(levels).fill(1 / levels);
  if (a <= 0) return Array.from({ length: levels }, (_, i) => (i === 0 ? 1 : 0));
  if (b <= 0) return Array.from({ length: levels }, (_, i) => (i === n ? 1 : 0));
  const lnBeta = (x: number, y: number) => logGamma(x) + logGamma(y) - logGamma(x + y);
  const lnChoose = (k: number) => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
  const base = lnBeta(a, b);
  return normalise(Array.from({ length: levels }, (_, k) => Math.exp(lnChoose(k) + lnBeta(k + a, n - k + b) - base)));
}

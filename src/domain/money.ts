// Money in integer minor units; the one rounding function (DESIGN rule 8).

/** Minor-unit digits per currency; absent means 2. JPY and friends have none, BHD and friends three. */
export const MINOR_DIGITS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, HUF: 2, BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3 };

export function minorDigits(currency: string): number {
  return MINOR_DIGITS[currency.toUpperCase()] ?? 2;
}

/**
 * Rounds half away from zero to an integer (half-up for the non-negative amounts we handle).
 * This is the one rounding function: every computed money amount goes through it.
 */
export function roundHalfUp(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`Cannot round ${value}`);
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  // The tolerance absorbs binary noise such as 1.005 * 100 = 100.49999999999999; it grows with
  // the magnitude (a few ulps) so large amounts are not rounded down by representation error.
  const tolerance = Math.max(1e-9, abs * 4 * Number.EPSILON);
  const rounded = sign * Math.floor(abs + 0.5 + tolerance);
  return rounded === 0 ? 0 : rounded; // never -0
}

/** Converts a decimal amount from the edge into minor units of `currency`. */
export function toMinor(amount: number, currency: string): number {
  return roundHalfUp(amount * 10 ** minorDigits(currency));
}

/** Converts minor units back into a JSON number with at most the currency's digits. */
export function fromMinor(minor: number, currency: string): number {
  const digits = minorDigits(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** Rounds a fraction of a minor-unit amount, e.g. 12% commission of 1999 cents. */
export function multiplyMinor(amountMinor: number, factor: number): number {
  return roundHalfUp(amountMinor * factor);
}

/**
 * Splits `totalMinor` across `weights` in proportion, largest remainder first, so the parts
 * always add up to the total exactly (no cent lost or invented by rounding each part).
 * Ties go to the earlier weight. All weights zero: everything goes to the first part.
 */
export function allocateMinor(totalMinor: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(totalMinor)) throw new RangeError(`allocateMinor needs an integer total, got ${totalMinor}`);
  if (weights.length === 0) throw new RangeError('allocateMinor needs at least one weight');
  if (weights.some((w) => !Number.isFinite(w) || w < 0)) throw new RangeError('allocateMinor weights must be finite and >= 0');
  const weightSum = weights.reduce((a, b) => a + b, 0);
  if (weightSum === 0) return weights.map((_, i) => (i === 0 ? totalMinor : 0));
  const sign = totalMinor < 0 ? -1 : 1;
  const abs = Math.abs(totalMinor);
  const exact = weights.map((w) => (abs * w) / weightSum);
  const parts = exact.map((x) => Math.floor(x));
  let left = abs - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, rest: x - Math.floor(x) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) parts[order[k].i] += 1;
  return parts.map((p) => (p === 0 ? 0 : sign * p));
}

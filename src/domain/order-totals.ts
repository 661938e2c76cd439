// Order subtotal, tax and total in integer minor units; re-totaling after lines are dropped.
import { DomainError } from './errors.js';
import { roundHalfUp } from './money.js';

/** A priced line: unit price in minor units of the order currency, and a quantity. */
export interface PricedLine {
  unitPriceMinor: number;
  qty: number;
}

export interface OrderTotals {
  subtotal: number;
  tax: number;
  total: number;
}

function assertSafe(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new DomainError('amount_too_large', `${what} is too large`, 'invalid_input');
  return value;
}

/** unit price x qty, exact (both are integers). */
export function lineTotalMinor(line: PricedLine): number {
  if (!Number.isSafeInteger(line.unitPriceMinor) || line.unitPriceMinor < 0)
    throw new RangeError(`unitPriceMinor must be a non-negative integer, got ${line.unitPriceMinor}`);
  if (!Number.isSafeInteger(line.qty) || line.qty <= 0) throw new RangeError(`qty must be a positive integer, got ${line.qty}`);
  return assertSafe(line.unitPriceMinor * line.qty, 'Line total');
}

/**
 * Subtotal is the sum of line totals; tax is `subtotal x taxRate` (a fraction from the workspace)
 * rounded once, on the subtotal, half-up, so per-line rounding never drifts; total = subtotal + tax.
 */
export function computeTotals(lines: readonly PricedLine[], taxRate: number): OrderTotals {
  if (!Number.isFinite(taxRate) || taxRate < 0) throw new RangeError(`taxRate must be a fraction >= 0, got ${taxRate}`);
  const subtotal = assertSafe(lines.reduce((sum, line) => sum + lineTotalMinor(line), 0), 'Order subtotal');
  const tax = roundHalfUp(subtotal * taxRate);
  return { subtotal, tax, total: assertSafe(subtotal + tax, 'Order total') };
}

/**
 * Partial acceptance: keeps the lines `keep` accepts and totals them again
 * (tax recomputed on the new subtotal, not scaled from the old tax).
 */
export function retotal<L extends PricedLine>(
  lines: readonly L[],
  keep: (line: L) => boolean,
  taxRate: number,
): { lines: L[]; dropped: L[]; totals: OrderTotals } {
  const kept: L[] = [];
  const dropped: L[] = [];
  for (const line of lines) (keep(line) ? kept : dropped).push(line);
  return { lines: kept, dropped, totals: computeTotals(kept, taxRate) };
}

/** Drops the lines of rejected sellers (by resolved seller id; first party is never dropped) and re-totals. */
export function retotalWithoutSellers<L extends PricedLine & { sellerId?: string | null }>(
  lines: readonly L[],
  rejectedSellerIds: Iterable<string>,
  taxRate: number,
): { lines: L[]; dropped: L[]; totals: OrderTotals } {
  const rejected = new Set(rejectedSellerIds);
  return retotal(lines, (line) => line.sellerId == null || !rejected.has(line.sellerId), taxRate);
}

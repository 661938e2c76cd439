// Unit tests for order totals (spec "Order live state": computed subtotal, tax, total; "Seller-accept node branches": partial re-totals).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { computeTotals, lineTotalMinor, retotal, retotalWithoutSellers } from '../../../src/domain/order-totals.js';

describe('order totals in minor units', () => {
  it('subtotal sums unit price x qty; total = subtotal + tax', () => {
    expect(computeTotals([{ unitPriceMinor: 1250, qty: 2 }, { unitPriceMinor: 8999, qty: 1 }], 0)).toEqual({ subtotal: 11499, tax: 0, total: 11499 });
    expect(computeTotals([], 0.2)).toEqual({ subtotal: 0, tax: 0, total: 0 });
  });

  it('tax is rounded once on the subtotal, half-up (not per line)', () => {
    // Per line: 3 x round(5 x 0.1 = 0.5) would be 3; on the subtotal 15 x 0.1 = 1.5 -> 2.
    const lines = [{ unitPriceMinor: 5, qty: 1 }, { unitPriceMinor: 5, qty: 1 }, { unitPriceMinor: 5, qty: 1 }];
    expect(computeTotals(lines, 0.1)).toEqual({ subtotal: 15, tax: 2, total: 17 });
    expect(computeTotals([{ unitPriceMinor: 1999, qty: 1 }], 0.0825).tax).toBe(165); // 164.9175
    expect(computeTotals([{ unitPriceMinor: 1010, qty: 1 }], 0.05).tax).toBe(51); // 50.5 exactly -> up
  });

  it('rejects amounts that would leave safe integers with a 400 DomainError', () => {
    expect(() => computeTotals([{ unitPriceMinor: 2 ** 52, qty: 3 }], 0)).toThrow(DomainError);
    expect(() => lineTotalMinor({ unitPriceMinor: 1.5, qty: 1 })).toThrow(RangeError);
  });

  it('partial acceptance: dropping a rejected seller lines re-totals, tax recomputed', () => {
    const lines = [
      { sku: 'A', unitPriceMinor: 1000, qty: 1, sellerId: null },
      { sku: 'B', unitPriceMinor: 4500, qty: 2, sellerId: 'seller_acme' },
      { sku: 'C', unitPriceMinor: 1999, qty: 1, sellerId: 'seller_bolt' },
    ];
    const r = retotalWithoutSellers(lines, ['seller_acme'], 0.1);
    expect(r.lines.map((l) => l.sku)).toEqual(['A', 'C']);
    expect(r.dropped.map((l) => l.sku)).toEqual(['B']);
    expect(r.totals).toEqual({ subtotal: 2999, tax: 300, total: 3299 });
    expect(retotal(lines, () => false, 0.1).totals.total).toBe(0);
  });
});

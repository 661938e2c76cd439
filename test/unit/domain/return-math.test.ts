// Unit and property tests of the return rules (runtime contract 18): line shares of the total, the last unit's remainder,
// what is left per SKU and seller, and the issues that refuse a return; and when an order takes one (the window).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lineShares, planReturn, returnableUnits, unitsRefund, type ReturnableLine } from '../../../src/domain/return-math.js';
import { returnRefusal, returnWindowEndsAt } from '../../../src/domain/return-window.js';

const line = (lineNo: number, sku: string, qty: number, unitPriceMinor: number | null, sellerId: string | null = null, dropped = false): ReturnableLine => ({
  lineNo, sku, name: null, sellerId, qty, unitPriceMinor, dropped,
});

describe('contract 18: what returned units refund', () => {
  it("each kept line's share of the total (tax included) is in proportion to its line total, and the shares add up to the total", () => {
    // 135.00 and 28.00 of a 176.45 total (8.25% tax): 14613.96 and 3031.04 -> 14614 and 3031 (largest remainder).
    const shares = lineShares([line(1, 'PAN', 3, 4500), line(2, 'PRINT', 1, 2800), line(3, 'TENT', 1, 19900, 'bolt', true)], 17645);
    expect([...shares]).toEqual([[1, 14614], [2, 3031]]);
  });

  it('a unit refunds share / qty rounded half-up; the last unit takes the remainder (either sign)', () => {
    expect(unitsRefund(14614, 3, 0, 1)).toBe(4871); // 4871.33
    expect(unitsRefund(14614, 3, 1, 3)).toBe(9743); // 4871 + 4871 + the remainder 1
    expect(unitsRefund(100, 3, 0, 3)).toBe(100); // 33 + 33 + 34
    expect(unitsRefund(100, 3, 2, 3)).toBe(34);
    expect(unitsRefund(200, 3, 2, 3)).toBe(66); // 67, 67, then 66
    expect(unitsRefund(200, 3, 0, 0)).toBe(0);
    expect(() => unitsRefund(200, 3, 2, 4)).toThrow(RangeError);
  });

  it('property: returning every unit of an order, in any split over any number of returns, refunds exactly its total', () => {
    const orders = fc.record({
      lines: fc.array(fc.record({ qty: fc.integer({ min: 1, max: 9 }), price: fc.integer({ min: 0, max: 50_000 }) }), { minLength: 1, maxLength: 5 }),
      taxPermille: fc.integer({ min: 0, max: 250 }),
      seed: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 30 }),
    });
    fc.assert(
      fc.property(orders, ({ lines, taxPermille, seed }) => {
        const kept = lines.map((l, i) => line(i + 1, `SKU-${i + 1}`, l.qty, l.price));
        const subtotal = kept.reduce((n, l) => n + l.qty * (l.unitPriceMinor ?? 0), 0);
        const total = subtotal + Math.round((subtotal * taxPermille) / 1000);
        const covered: { lineNo: number; qty: number }[] = [];
        let refunded = 0;
        // Returns of a few units at a time (sizes from `seed`), each against what earlier ones covered, until nothing is left.
        for (let k = 0; returnableUnits(kept, covered).length > 0; k++) {
          const left = returnableUnits(kept, covered)[0];
          const qty = Math.min(left.qty, seed[k % seed.length]);
          const plan = planReturn(kept, covered, [{ sku: left.sku, qty }], total);
          if ('issues' in plan) return false;
          refunded += plan.amountMinor;
          covered.push(...plan.parts.map((p) => ({ lineNo: p.lineNo, qty: p.qty })));
        }
        return refunded === total;
      }),
      { numRuns: 200 },
    );
  });
});

describe('contract 18: which units may be returned', () => {
  const order = [
    line(1, 'PAN', 2, 4500, 'acme'),
    line(2, 'PAN', 1, 4500, 'acme'),
    line(3, 'TENT', 1, 19900, 'bolt', true),
    line(4, 'MUG', 2, 1250),
    line(5, 'MUG', 1, 1250, 'nimbus'),
  ];
  const total = 4500 * 3 + 1250 * 3;

  it('what is left: kept units per SKU and seller less those earlier returns cover (dropped lines never count)', () => {
    expect(returnableUnits(order, [{ lineNo: 1, qty: 2 }, { lineNo: 4, qty: 2 }])).toEqual([
      { sku: 'PAN', sellerId: 'acme', name: null, qty: 1 },
      { sku: 'MUG', sellerId: 'nimbus', name: null, qty: 1 },
    ]);
  });

  it("a SKU's units are taken from its lines in line order, each part refunding its own line's units", () => {
    const plan = planReturn(order, [{ lineNo: 1, qty: 1 }], [{ sku: 'PAN', qty: 2 }], total);
    expect(plan).toEqual({
      parts: [
        { lineNo: 1, sku: 'PAN', name: null, sellerId: 'acme', qty: 1, unitPriceMinor: 4500, amountMinor: 4500 },
        { lineNo: 2, sku: 'PAN', name: null, sellerId: 'acme', qty: 1, unitPriceMinor: 4500, amountMinor: 4500 },
      ],
      amountMinor: 9000,
    });
  });

  it('refuses with one issue per bad line: unknown or dropped SKU, several sellers without sellerId, a seller without the SKU, a repeat, too many units', () => {
    const plan = planReturn(
      order,
      [{ lineNo: 4, qty: 1 }],
      [
        { sku: 'NOPE', qty: 1 },
        { sku: 'TENT', qty: 1 },
        { sku: 'MUG', qty: 1 },
        { sku: 'PAN', qty: 1, sellerId: 'nimbus' },
        { sku: 'MUG', qty: 2, sellerId: null },
        { sku: 'PAN', qty: 1, sellerId: 'acme' },
        { sku: 'PAN', qty: 1 },
      ],
      total,
    );
    expect(plan).toEqual({
      issues: [
        { path: 'lines.0.sku', message: 'NOPE is not on the order' },
        { path: 'lines.1.sku', message: 'TENT was dropped from the order: its seller did not accept it' },
        { path: 'lines.2.sellerId', message: 'MUG is on lines of several sellers (first party, nimbus): name the seller' },
        { path: 'lines.3.sellerId', message: 'No line of PAN is sold by nimbus' },
        { path: 'lines.4.qty', message: 'At most 1 unit(s) of MUG left to return' },
        { path: 'lines.6', message: 'The same SKU and seller as lines.5: give each once' },
      ],
    });
    expect(planReturn(order, [{ lineNo: 5, qty: 1 }], [{ sku: 'MUG', qty: 1, sellerId: 'nimbus' }], total)).toEqual({
      issues: [{ path: 'lines.0.qty', message: 'No unit of MUG is left to return' }],
    });
  });
});

describe('contract 18: when an order takes a return', () => {
  const DAY = 86_400_000;
  const facts = { orderId: 'ord_1', status: 'waiting', isReturn: false, capturedAt: 1_000, hasPayoutNode: true, payoutRan: false, windowDays: 14, now: 2_000 };

  it('once captured or charged, until the payout node runs (marketplace), however long that takes', () => {
    expect(returnRefusal({ ...facts, now: 1_000 + 100 * DAY })).toBeNull();
    expect(returnRefusal({ ...facts, capturedAt: null })?.code).toBe('not_captured');
    expect(returnRefusal({ ...facts, payoutRan: true })?.code).toBe('payout_ran');
  });

  it('flows without a payout node: until returnWindowDays after capture', () => {
    const other = { ...facts, hasPayoutNode: false, status: 'completed' };
    expect(returnWindowEndsAt(1_000, 14)).toBe(1_000 + 14 * DAY);
    expect(returnRefusal({ ...other, now: 1_000 + 14 * DAY - 1 })).toBeNull();
    expect(returnRefusal({ ...other, now: 1_000 + 14 * DAY })).toMatchObject({ code: 'return_window_closed', message: expect.stringMatching(/closed on 1970-01-15T00:00:01/) });
    expect(returnRefusal({ ...other, now: null })).toBeNull();
  });

  it('never for a return, nor for an order that ended cancelled, failed, rolled back or declined', () => {
    expect(returnRefusal({ ...facts, isReturn: true })?.code).toBe('return_of_return');
    for (const status of ['cancelled', 'failed', 'rolled_back', 'declined']) expect(returnRefusal({ ...facts, status })?.code).toBe('order_ended');
    expect(returnRefusal({ ...facts, status: 'completed' })).toBeNull();
  });
});

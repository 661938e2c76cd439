// Unit tests for the spec's "Payout computation" (gross, refunded, commission, net; minor units, half-up).
import { describe, expect, it } from 'vitest';
import { computePayouts, computeSellerPayout } from '../../../src/domain/payout-math.js';

describe('spec "Payout computation": the four formulas', () => {
  it('gross = seller subtotal; no refunds: commission = gross x rate; net = gross - commission', () => {
    expect(computeSellerPayout('seller_acme', 10_000, 0.12, 15_000, 0)).toEqual({
      sellerId: 'seller_acme', gross: 10_000, refunded: 0, commission: 1_200, net: 8_800,
    });
  });

  it('refunded = refunds x gross / order total; commission on gross - refunded', () => {
    // 3000 refunded on a 15000 order: this seller's share 3000 x 10000 / 15000 = 2000.
    expect(computeSellerPayout('s', 10_000, 0.1, 15_000, 3_000)).toEqual({ sellerId: 's', gross: 10_000, refunded: 2_000, commission: 800, net: 7_200 });
  });

  it('refunded is never above gross (refunds larger than the order total)', () => {
    const p = computeSellerPayout('s', 10_000, 0.12, 15_000, 30_000);
    expect(p.refunded).toBe(10_000);
    expect(p.commission).toBe(0);
    expect(p.net).toBe(0);
  });

  it('order total 0 means nothing refunded (no division by zero)', () => {
    expect(computeSellerPayout('s', 0, 0.12, 0, 500)).toEqual({ sellerId: 's', gross: 0, refunded: 0, commission: 0, net: 0 });
  });

  it('cents rounding is half-up: 12% of 1999 = 239.88 -> 240; 10% of 1005 = 100.5 -> 101; 10% of 1004 = 100.4 -> 100', () => {
    expect(computeSellerPayout('s', 1_999, 0.12, 1_999, 0)).toMatchObject({ commission: 240, net: 1_759 });
    expect(computeSellerPayout('s', 1_005, 0.1, 1_005, 0)).toMatchObject({ commission: 101, net: 904 });
    expect(computeSellerPayout('s', 1_004, 0.1, 1_004, 0)).toMatchObject({ commission: 100, net: 904 });
    // refunded share 1000 x 333 / 2000 = 166.5 -> 167
    expect(computeSellerPayout('s', 333, 0, 2_000, 1_000)).toMatchObject({ refunded: 167, net: 166 });
  });

  it('JPY (0 digits): amounts are whole yen, 12.5% of 1004 yen = 125.5 -> 126', () => {
    expect(computeSellerPayout('s', 1_004, 0.125, 1_004, 0)).toMatchObject({ gross: 1_004, commission: 126, net: 878 });
    expect(computeSellerPayout('s', 1_000, 0.125, 1_000, 0)).toMatchObject({ commission: 125, net: 875 });
  });

  it('BHD (3 digits): amounts are fils, 15% of 12.345 BHD = 1.85175 -> 1.852', () => {
    expect(computeSellerPayout('s', 12_345, 0.15, 12_345, 0)).toMatchObject({ commission: 1_852, net: 10_493 });
  });

  it('net + commission + refunded always equals gross', () => {
    for (const [gross, rate, total, refunds] of [[1, 0.5, 3, 1], [9_999, 0.333, 20_000, 7_777], [12_345, 0.07, 12_345, 12_344]])
      {
        const p = computeSellerPayout('s', gross, rate, total, refunds);
        expect(p.net + p.commission + p.refunded).toBe(p.gross);
      }
  });
});

describe('spec "Payout computation": per accepted third-party seller, with totals', () => {
  const commissionOf = (id: string) => ({ seller_acme: 0.12, seller_bolt: 0.1, seller_nimbus: 0.15 })[id] ?? 0;

  it('skips first party and rejected or cancelled parts; sums commission; lists { sellerId, net }', () => {
    const r = computePayouts(
      [
        { sellerId: null, status: 'accepted', subtotal: 5_000 },
        { sellerId: 'seller_acme', status: 'accepted', subtotal: 9_000 },
        { sellerId: 'seller_bolt', status: 'rejected', subtotal: 19_900 },
        { sellerId: 'seller_nimbus', status: 'accepted', subtotal: 2_800 },
        { sellerId: 'seller_x', status: 'cancelled', subtotal: 100 },
      ],
      commissionOf,
      16_800,
      0,
    );
    expect(r.payouts.map((p) => p.sellerId)).toEqual(['seller_acme', 'seller_nimbus']);
    expect(r.commission).toBe(1_080 + 420);
    expect(r.summary).toEqual([{ sellerId: 'seller_acme', net: 7_920 }, { sellerId: 'seller_nimbus', net: 2_380 }]);
  });

  it('no third-party seller: nothing scheduled', () => {
    expect(computePayouts([{ sellerId: null, status: 'accepted', subtotal: 5_000 }], commissionOf, 5_000, 0)).toEqual({ payouts: [], commission: 0, summary: [] });
  });
});

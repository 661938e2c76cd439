// Payout computation per accepted third-party seller (spec "Payout computation"), in minor units.
//
// Every amount is an integer in minor units of the order currency and each computed amount is
// rounded once with `roundHalfUp`. "Rounded to cents" in the spec means rounded to the order
// currency's minor unit: a cent for USD/EUR, a whole yen for JPY (0 digits, so 1000 yen at 12.5%
// commission is 125 yen and 1004 yen gives 125.5 -> 126), a fils for BHD (3 digits). Because the
// inputs are already minor units the same integer rounding serves every currency; no step
// converts to decimals and back.
import { multiplyMinor, roundHalfUp } from './money.js';
import type { SellerOrderStatus } from './seller-split.js';

/** One seller's payout amounts, all in minor units of the order currency. */
export interface PayoutAmounts {
  sellerId: string;
  gross: number;
  refunded: number;
  commission: number;
  net: number;
}

export interface PayoutTotals {
  /** One entry per accepted third-party seller, in input order. */
  payouts: PayoutAmounts[];
  /** Sum of commissions (what `vars.commission` reports, converted at the edge). */
  commission: number;
  /** `vars.payouts` shape: `{ sellerId, net }` per seller. */
  summary: { sellerId: string; net: number }[];
}

/** A seller order as the payout step sees it. First party has `sellerId: null`. */
export interface PayoutSellerOrder {
  sellerId: string | null;
  status: SellerOrderStatus;
  /** Seller subtotal in minor units. */
  subtotal: number;
}

function assertMinor(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

/**
 * The four formulas for one seller:
 * gross = seller subtotal;
 * refunded = refunds succeeded so far x gross / order total, never above gross (0 when the total is 0);
 * commission = (gross - refunded) x commission rate;
 * net = gross - refunded - commission.
 */
export function computeSellerPayout(
  sellerId: string,
  sellerSubtotal: number,
  commissionRate: number,
  orderTotal: number,
  refundsSucceeded: number,
): PayoutAmounts {
  assertMinor(sellerSubtotal, 'sellerSubtotal');
  assertMinor(orderTotal, 'orderTotal');
  assertMinor(refundsSucceeded, 'refundsSucceeded');
  if (!Number.isFinite(commissionRate) || commissionRate < 0 || commissionRate > 1)
    throw new RangeError(`commission must be a fraction between 0 and 1, got ${commissionRate}`);
  const gross = sellerSubtotal;
  const refunded = orderTotal === 0 ? 0 : Math.min(gross, roundHalfUp((refundsSucceeded * gross) / orderTotal));
  const commission = multiplyMinor(gross - refunded, commissionRate);
  const net = gross - refunded - commission;
  return { sellerId, gross, refunded, commission, net };
}

/**
 * Payouts for an order: only accepted third-party seller orders get one (first party and
 * rejected or cancelled parts none). No third-party seller: empty list, commission 0.
 * `commissionOf` gives the seller's commission fraction (0.12 means 12%).
 */
export function computePayouts(
  sellerOrders: readonly PayoutSellerOrder[],
  commissionOf: (sellerId: string) => number,
  orderTotal: number,
  refundsSucceeded: number,
): PayoutTotals {
  const payouts: PayoutAmounts[] = [];
  for (const part of sellerOrders) {
    if (part.sellerId === null || part.status !== 'accepted') continue;
    payouts.push(computeSellerPayout(part.sellerId, part.subtotal, commissionOf(part.sellerId), orderTotal, refundsSucceeded));
  }
  return {
    payouts,
    commission: payouts.reduce((sum, p) => sum + p.commission, 0),
    summary: payouts.map((p) => ({ sellerId: p.sellerId, net: p.net })),
  };
}

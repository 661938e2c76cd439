// Read models of the marketplace: a seller's and an order's seller orders, and payouts, in the order currency.
import type { Queryable } from '../db/db.js';
import { notFound } from '../domain/errors.js';
import { fromMinor } from '../domain/money.js';
import { payoutsOf, type PayoutRow } from '../commerce/payouts-repo.js';
import { sellerOrdersOf, sellerOrdersOfSeller, type SellerOrderRow } from '../commerce/seller-orders-repo.js';

/** One seller order in the order currency (decimal amounts), as the API shows it. */
function sellerOrderView(s: SellerOrderRow) {
  return {
    id: s.id,
    orderId: s.orderId,
    sellerId: s.sellerId,
    currency: s.currency,
    subtotal: fromMinor(s.subtotalMinor, s.currency),
    status: s.status,
    reason: s.reason,
    lines: s.lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, name: l.name, qty: l.qty, unitPrice: fromMinor(l.unitPriceMinor, s.currency) })),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** 404 for an unknown order. */
async function requireOrder(q: Queryable, orderId: string): Promise<void> {
  const order = await q.query('SELECT 1 FROM orders WHERE id = $1', [orderId]);
  if (order.rows.length === 0) throw notFound('Order');
}

/** A seller's seller orders, newest first (at most 500); 404 for an unknown seller. */
export async function sellerOrdersView(q: Queryable, sellerId: string) {
  const seller = await q.query('SELECT 1 FROM sellers WHERE id = $1', [sellerId]);
  if (seller.rows.length === 0) throw notFound('Seller');
  const rows = await sellerOrdersOfSeller(q, sellerId);
  return rows.map((s) => ({ ...sellerOrderView(s), sellerId: s.sellerId! }));
}

/** An order's seller payouts; 404 for an unknown order. */
export async function payoutsView(q: Queryable, orderId: string) {
  await requireOrder(q, orderId);
  return (await payoutsOf(q, orderId)).map(payoutView);
}

/** One payout in the order currency (decimal amounts), as the API shows it. */
export function payoutView(p: PayoutRow) {
  return {
    id: p.id,
    orderId: p.orderId,
    sellerId: p.sellerId,
    currency: p.currency,
    gross: fromMinor(p.gross, p.currency),
    refunded: fromMinor(p.refunded, p.currency),
    commission: fromMinor(p.commission, p.currency),
    commissionRate: p.commissionRate,
    net: fromMinor(p.net, p.currency),
    status: p.status,
    scheduledAt: p.scheduledAt,
    paidAt: p.paidAt,
    reversedAt: p.reversedAt,
  };
}

/** An order's seller orders in creation order (first party as seller null); 404 for an unknown order. */
export async function orderSellerOrdersView(q: Queryable, orderId: string) {
  await requireOrder(q, orderId);
  const rows = await sellerOrdersOf(q, orderId);
  return rows.map(sellerOrderView);
}

// Read models of the marketplace: a seller's seller orders and an order's payouts, in the order currency.
import type { Queryable } from '../db/db.js';
import { notFound } from '../domain/errors.js';
import { fromMinor } from '../domain/money.js';
import { payoutsOf } from '../commerce/payouts-repo.js';
import { sellerOrdersOfSeller } from '../commerce/seller-orders-repo.js';

/** A seller's seller orders, newest first (at most 500); 404 for an unknown seller. */
export async function sellerOrdersView(q: Queryable, sellerId: string) {
  const seller = await q.query('SELECT 1 FROM sellers WHERE id = $1', [sellerId]);
  if (seller.rows.length === 0) throw notFound('Seller');
  const rows = await sellerOrdersOfSeller(q, sellerId);
  return rows.map((s) => ({
    id: s.id,
    orderId: s.orderId,
    sellerId: s.sellerId!,
    currency: s.currency,
    subtotal: fromMinor(s.subtotalMinor, s.currency),
    status: s.status,
    reason: s.reason,
    lines: s.lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, name: l.name, qty: l.qty, unitPrice: fromMinor(l.unitPriceMinor, s.currency) })),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }));
}

/** An order's seller payouts; 404 for an unknown order. */
export async function payoutsView(q: Queryable, orderId: string) {
  const order = await q.query('SELECT 1 FROM orders WHERE id = $1', [orderId]);
  if (order.rows.length === 0) throw notFound('Order');
  const rows = await payoutsOf(q, orderId);
  return rows.map((p) => ({
    id: p.id,
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
  }));
}

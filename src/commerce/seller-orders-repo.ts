// Seller orders in PostgreSQL: one per order and seller (first party: seller NULL), their statuses and reasons.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import type { SellerOrderStatus } from '../domain/seller-split.js';

export interface SellerOrderLine {
  lineNo: number;
  sku: string;
  name: string | null;
  qty: number;
  unitPriceMinor: number;
}

export interface SellerOrderRow {
  id: string;
  orderId: string;
  sellerId: string | null;
  lines: SellerOrderLine[];
  subtotalMinor: number;
  currency: string;
  status: SellerOrderStatus;
  reason: string | null;
  createdAt: number;
  updatedAt: number;
}

function toRow(r: any): SellerOrderRow {
  return {
    id: r.id,
    orderId: r.order_id,
    sellerId: r.seller_id,
    lines: r.lines,
    subtotalMinor: Number(r.subtotal_minor),
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The order's seller orders in creation order (first party, if any, where its first line fell). */
export async function sellerOrdersOf(q: Queryable, orderId: string, opts: { lock?: boolean } = {}): Promise<SellerOrderRow[]> {
  const { rows } = await q.query(
    `SELECT * FROM seller_orders WHERE order_id = $1 ORDER BY created_at, (lines->0->>'lineNo')::int, id ${opts.lock ? 'FOR UPDATE' : ''}`,
    [orderId],
  );
  return rows.map(toRow);
}

/**
 * Creates the seller order unless the order already has one for that seller (the unique
 * constraint): a retried split changes nothing. Returns the row as stored.
 */
export async function insertSellerOrder(
  q: Queryable,
  o: { orderId: string; sellerId: string | null; lines: SellerOrderLine[]; subtotalMinor: number; currency: string; status: SellerOrderStatus },
  now: number,
): Promise<SellerOrderRow> {
  await q.query(
    `INSERT INTO seller_orders (id, order_id, seller_id, lines, subtotal_minor, currency, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT ON CONSTRAINT seller_orders_one_per_seller DO NOTHING`,
    [newCommerceId('so'), o.orderId, o.sellerId, JSON.stringify(o.lines), o.subtotalMinor, o.currency, o.status, now],
  );
  const { rows } = await q.query('SELECT * FROM seller_orders WHERE order_id = $1 AND seller_id IS NOT DISTINCT FROM $2', [o.orderId, o.sellerId]);
  return toRow(rows[0]);
}

export async function setSellerOrderStatus(q: Queryable, id: string, status: SellerOrderStatus, reason: string | null, now: number): Promise<void> {
  await q.query('UPDATE seller_orders SET status = $2, reason = $3, updated_at = $4 WHERE id = $1', [id, status, reason, now]);
}

/** Rollback or cancel: pending and accepted parts become cancelled; rejected ones stay rejected. */
export async function cancelOpenSellerOrders(q: Queryable, orderId: string, now: number): Promise<string[]> {
  const { rows } = await q.query(
    `UPDATE seller_orders SET status = 'cancelled', updated_at = $2
      WHERE order_id = $1 AND status IN ('pending', 'accepted') RETURNING seller_id`,
    [orderId, now],
  );
  return rows.map((r) => r.seller_id ?? 'first party');
}

/** A seller's seller orders, newest first (GET /api/v1/sellers/:id/orders). */
export async function sellerOrdersOfSeller(q: Queryable, sellerId: string, limit = 500): Promise<SellerOrderRow[]> {
  const { rows } = await q.query('SELECT * FROM seller_orders WHERE seller_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [sellerId, limit]);
  return rows.map(toRow);
}

// Seller orders in PostgreSQL: one per order and seller (first party: seller NULL), their statuses and reasons.
import type { Queryable } from '../db/db.js';
import { cachedRows, forgetRows, seedRead, writeThrough } from '../db/transaction-read-cache.js';
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

/** A `seller_orders` row as pg returns it (bigint columns as text). */
interface SellerOrderDbRow {
  id: string;
  order_id: string;
  seller_id: string | null;
  lines: SellerOrderLine[];
  subtotal_minor: string;
  currency: string;
  status: SellerOrderStatus;
  reason: string | null;
  created_at: string;
  updated_at: string;
}

function toRow(r: SellerOrderDbRow): SellerOrderRow {
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

/** The read of an order's seller orders (sellerOrdersOf), also the key of the slice's cached copy. */
const SELLER_ORDERS_TEXT = `SELECT * FROM seller_orders WHERE order_id = $1 ORDER BY created_at, (lines->0->>'lineNo')::int, id`;

/** The order's seller orders in creation order (first party, if any, where its first line fell). */
export async function sellerOrdersOf(q: Queryable, orderId: string, opts: { lock?: boolean } = {}): Promise<SellerOrderRow[]> {
  if (!opts.lock) return (await cachedRows<SellerOrderDbRow>(q, 'seller_orders', SELLER_ORDERS_TEXT, [orderId])).map(toRow);
  // The locked rows are the rows a plain read would answer: later steps of the slice (the payout) read them from its cache.
  const { rows } = await q.query<SellerOrderDbRow>(`${SELLER_ORDERS_TEXT} FOR UPDATE`, [orderId]);
  seedRead(q, { table: 'seller_orders', text: SELLER_ORDERS_TEXT, values: [orderId], rows });
  return rows.map(toRow);
}

/** A seller order to create (`insertSellerOrders`). */
export interface NewSellerOrder {
  sellerId: string | null;
  lines: SellerOrderLine[];
  subtotalMinor: number;
  status: SellerOrderStatus;
}

/** The order `sellerOrdersOf` returns them in: creation, then the first line, then id. */
function byCreation(a: SellerOrderRow, b: SellerOrderRow): number {
  return a.createdAt - b.createdAt || (a.lines[0]?.lineNo ?? 0) - (b.lines[0]?.lineNo ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Creates the order's seller orders in one statement, each unless the order already has one for
 * that seller (the unique constraint): a retried split changes nothing. Returns every seller
 * order the order has, as stored, in `sellerOrdersOf`'s order: the main SELECT reads the rows
 * as they were before the statement, and the INSERT's RETURNING adds the new ones.
 */
export async function insertSellerOrders(q: Queryable, orderId: string, currency: string, parts: readonly NewSellerOrder[], now: number): Promise<SellerOrderRow[]> {
  const input = parts.map((p) => ({ id: newCommerceId('so'), seller_id: p.sellerId, lines: p.lines, subtotal_minor: p.subtotalMinor, status: p.status }));
  const { rows } = await q.query<SellerOrderDbRow>(
    `WITH added AS (
       INSERT INTO seller_orders (id, order_id, seller_id, lines, subtotal_minor, currency, status, created_at, updated_at)
       SELECT p.id, $2, p.seller_id, p.lines, p.subtotal_minor, $3, p.status, $4, $4
         FROM jsonb_to_recordset($1::jsonb) AS p(id text, seller_id text, lines jsonb, subtotal_minor bigint, status text)
       ON CONFLICT ON CONSTRAINT seller_orders_one_per_seller DO NOTHING
       RETURNING *)
     SELECT * FROM added UNION ALL SELECT * FROM seller_orders WHERE order_id = $2`,
    [JSON.stringify(input), orderId, currency, now],
  );
  forgetRows(q, 'seller_orders');
  return rows.map(toRow).sort(byCreation);
}

export async function setSellerOrderStatus(q: Queryable, id: string, status: SellerOrderStatus, reason: string | null, now: number): Promise<void> {
  // The slice's cached rows get the same change (bigint as PostgreSQL returns it: a string).
  await writeThrough(q, 'seller_orders', 'UPDATE seller_orders SET status = $2, reason = $3, updated_at = $4 WHERE id = $1', [id, status, reason, now], (row) => {
    if (row.id === id) Object.assign(row, { status, reason, updated_at: String(now) });
  });
}

/** Rollback or cancel: pending and accepted parts become cancelled; rejected ones stay rejected. */
export async function cancelOpenSellerOrders(q: Queryable, orderId: string, now: number): Promise<string[]> {
  const { rows } = await q.query<{ seller_id: string | null }>(
    `UPDATE seller_orders SET status = 'cancelled', updated_at = $2
      WHERE order_id = $1 AND status IN ('pending', 'accepted') RETURNING seller_id`,
    [orderId, now],
  );
  forgetRows(q, 'seller_orders');
  return rows.map((r) => r.seller_id ?? 'first party');
}

/** A seller's seller orders, newest first (GET /api/v1/sellers/:id/orders). */
export async function sellerOrdersOfSeller(q: Queryable, sellerId: string, limit = 500): Promise<SellerOrderRow[]> {
  const { rows } = await q.query<SellerOrderDbRow>('SELECT * FROM seller_orders WHERE seller_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [sellerId, limit]);
  return rows.map(toRow);
}

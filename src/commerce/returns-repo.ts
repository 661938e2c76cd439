// Returns as the commerce steps read them (contract 18): a parent's open returns, and the summary of the order a return's refund is sent for.
import type { Queryable } from '../db/db.js';
import { orderSummary, type OrderSummary } from './order-summary.js';
import { COMMERCE_ORDER_COLUMNS, toCommerceOrderFacts, type CommerceOrderColumns } from './commerce-order.js';

/** The statuses of a return that has not ended (the partial index `orders_open_returns_idx` holds exactly these). */
export const OPEN_RETURN_STATUSES = ['queued', 'running', 'waiting'] as const;

/** The returns of `orderId` that have not ended, oldest first. */
export async function openReturnsOf(q: Queryable, orderId: string): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM orders WHERE return_of = $1 AND status IN ('queued', 'running', 'waiting') ORDER BY created_at, id`,
    [orderId],
  );
  return rows.map((r) => r.id);
}

/** The order summary of `orderId` as webhooks carry it, or null when there is no such order. */
export async function orderSummaryOf(q: Queryable, orderId: string): Promise<OrderSummary | null> {
  const { rows } = await q.query<CommerceOrderColumns & { id: string }>(`SELECT id, ${COMMERCE_ORDER_COLUMNS} FROM orders WHERE id = $1`, [orderId]);
  return rows[0] ? orderSummary(rows[0].id, toCommerceOrderFacts(rows[0])) : null;
}

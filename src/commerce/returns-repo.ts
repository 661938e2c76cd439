// Returns as the commerce steps read them (contract 18): a parent's open returns, and the summary of the order a return's refund is sent for.
import type { Queryable } from '../db/db.js';
import { fromMinor } from '../domain/money.js';
import { baseTotalUsd, type OrderSummary } from '../engine/runtime/order-summary.js';

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
  const { rows } = await q.query<{
    id: string;
    model: string;
    channel: string;
    external_id: string | null;
    title: string | null;
    customer_id: string | null;
    currency: string;
    fx_rate: string;
    subtotal_minor: string;
    tax_minor: string;
    total_minor: string;
  }>(
    'SELECT id, model, channel, external_id, title, customer_id, currency, fx_rate, subtotal_minor, tax_minor, total_minor FROM orders WHERE id = $1',
    [orderId],
  );
  const r = rows[0];
  if (!r) return null;
  const total = Number(r.total_minor);
  return {
    id: r.id,
    model: r.model,
    channel: r.channel,
    externalId: r.external_id,
    title: r.title,
    customerId: r.customer_id,
    currency: r.currency,
    subtotal: fromMinor(Number(r.subtotal_minor), r.currency),
    tax: fromMinor(Number(r.tax_minor), r.currency),
    total: fromMinor(total, r.currency),
    fxRate: Number(r.fx_rate),
    baseTotal: baseTotalUsd(total, r.currency, Number(r.fx_rate)),
  };
}

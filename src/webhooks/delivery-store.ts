// Webhook delivery rows: creation from outbox events, the attempt bookkeeping, and the latest-50 listing.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** Spec "Webhook subscription and delivery": the delivery row as the API shows it. */
export interface DeliveryView {
  id: string;
  event: string;
  orderId: string;
  payload: unknown;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** A delivery as the worker reads it (locked). */
export interface DeliveryRow {
  id: string;
  seq: number;
  subscriptionId: string;
  orderId: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
}

/** Spec "Limits": deliveries listed, latest 50. */
export const DELIVERIES_LISTED = 50;

/**
 * `whd_` + 32 hex of SHA-256(outbox id, subscription id). The outbox id is itself derived from
 * order, generation, node, the node's run and event name (contract section 10), so a retry keeps
 * the id and a repeated event (another run) gets a new one.
 */
export function deliveryId(outboxId: string, subscriptionId: string): string {
  return `whd_${createHash('sha256').update(`${outboxId}|${subscriptionId}`).digest('hex').slice(0, 32)}`;
}

/** The `webhook_deliveries` columns the worker reads; bigint and bigserial columns arrive as strings. */
export interface DeliveryDbRow {
  id: string;
  seq: string;
  subscription_id: string;
  order_id: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
}

/** The columns of the API's delivery listing. */
interface DeliveryViewDbRow {
  id: string;
  event: string;
  order_id: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export function toDeliveryRow(r: DeliveryDbRow): DeliveryRow {
  return {
    id: r.id,
    seq: Number(r.seq),
    subscriptionId: r.subscription_id,
    orderId: r.order_id,
    event: r.event,
    body: r.body,
    status: r.status,
    attempts: r.attempts,
  };
}

/** Locks one delivery for the rest of the transaction; null when it (or its subscription) is gone. */
export async function lockDelivery(q: Queryable, id: string): Promise<DeliveryRow | null> {
  const { rows } = await q.query<DeliveryDbRow>('SELECT * FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ? toDeliveryRow(rows[0]) : null;
}

/** The latest 50 deliveries of a subscription, newest first. */
export async function listDeliveries(q: Queryable, subscriptionId: string): Promise<DeliveryView[]> {
  const { rows } = await q.query<DeliveryViewDbRow>(
    `SELECT id, event, order_id, body, status, attempts, response_status, last_error, created_at, delivered_at
       FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`,
    [subscriptionId, DELIVERIES_LISTED],
  );
  return rows.map((r): DeliveryView => ({
    id: r.id,
    event: r.event,
    orderId: r.order_id,
    payload: JSON.parse(r.body),
    status: r.status,
    attempts: r.attempts,
    responseStatus: r.response_status,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
  }));
}

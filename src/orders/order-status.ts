// An order's status as followers read it: one row (status, reason, updated_at) and, while it waits, its open waits and holds.
import type { Queryable } from '../db/db.js';
import { openWaits, type WaitRow } from '../engine/runtime/waits.js';
import { openHolds, type HoldRow } from '../engine/runtime/holds.js';
import type { OrderStatus } from '../engine/runtime/run-row.js';

export interface OrderStatusRow {
  status: OrderStatus;
  reason: string | null;
  /** orders.updated_at this was read from. */
  updatedAt: number;
}

export interface OrderProgress extends OrderStatusRow {
  /** The open waits (approvals, events, delays) while the order is waiting; empty otherwise. */
  waits: WaitRow[];
  /** The held steps (contract 16) while the order is waiting; empty otherwise. */
  holds: HoldRow[];
}

/** The order's status, reason and last update; null when the order does not exist. */
export async function readOrderStatus(q: Queryable, orderId: string): Promise<OrderStatusRow | null> {
  const { rows } = await q.query<{ status: OrderStatus; reason: string | null; updated_at: string }>(
    'SELECT status, reason, updated_at FROM orders WHERE id = $1',
    [orderId],
  );
  const row = rows[0];
  return row ? { status: row.status, reason: row.reason, updatedAt: Number(row.updated_at) } : null;
}

/** The status and, while waiting, the open waits and holds (what an A2A task following the order shows); null for an unknown order. */
export async function readOrderProgress(q: Queryable, orderId: string): Promise<OrderProgress | null> {
  const row = await readOrderStatus(q, orderId);
  if (!row) return null;
  if (row.status !== 'waiting') return { ...row, waits: [], holds: [] };
  const [waits, holds] = await Promise.all([openWaits(q, orderId), openHolds(q, orderId)]);
  return { ...row, waits, holds };
}

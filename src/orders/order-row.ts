// The orders row as the orders feature reads it: the run's fields (the engine's) and the commerce order's facts, side by side.
import type { Queryable } from '../db/db.js';
import { toRunFields, type RunDbRow, type RunFields } from '../engine/runtime/run-row.js';
import { toCommerceOrderFacts, type CommerceOrderColumns, type CommerceOrderFacts } from '../commerce/commerce-order.js';

/** An order: its run and its facts in one flat record, and the order it restarts (restart-order.ts). */
export interface OrderRow extends RunFields, CommerceOrderFacts {
  restartedFrom: string | null;
}

/** An `orders` row as pg returns it (bigint and numeric columns arrive as text). */
export type OrderDbRow = RunDbRow & CommerceOrderColumns & { restarted_from: string | null };

export function toOrderRow(r: OrderDbRow): OrderRow {
  return { ...toRunFields(r), ...toCommerceOrderFacts(r), restartedFrom: r.restarted_from };
}

export async function readOrder(q: Queryable, id: string): Promise<OrderRow | null> {
  const { rows } = await q.query<OrderDbRow>('SELECT * FROM orders WHERE id = $1', [id]);
  return rows[0] ? toOrderRow(rows[0]) : null;
}

// Retention of external-call attempts (`order_calls`): kept 30 days after their order ended, then purged; never for live orders.
import type { Db } from '../../db/db.js';
import { FINISHED_STATUSES } from './run-row.js';

/** How long the attempts of an ended order are kept after it ended (its timeline and node outputs stay for good). */
export const ORDER_CALL_RETENTION_MS = 30 * 86_400_000;

/** Rows removed per statement, so a first purge after a long time never holds a long transaction. */
const PURGE_BATCH = 5_000;

/**
 * Deletes the call attempts of orders that ended (completed, declined, cancelled, failed, rolled
 * back) more than ORDER_CALL_RETENTION_MS ago, by the order's last change. Orders that are queued,
 * running or waiting (a held order waits) keep every attempt: a retry of a hold continues the same
 * run and key. Answers how many rows went. Idempotent, so every node may run it.
 */
export async function purgeEndedOrderCalls(db: Db, now: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rowCount } = await db.maintenanceTx((tx) =>
      tx.query(
        `DELETE FROM order_calls WHERE ctid IN (
           SELECT c.ctid FROM order_calls c JOIN orders o ON o.id = c.order_id
            WHERE o.status = ANY($1::text[]) AND o.updated_at < $2 LIMIT $3)`,
        [[...FINISHED_STATUSES], now - ORDER_CALL_RETENTION_MS, PURGE_BATCH],
      ),
    );
    removed += rowCount ?? 0;
    if ((rowCount ?? 0) < PURGE_BATCH) return removed;
  }
}

// Idempotency-Key headers are kept 7 days, then purged; a channel's order keys (channel + externalId) are kept for good.
import type { Db } from '../db/db.js';
import { AGENT_ORDERS_SCOPE, API_ORDERS_SCOPE, API_RETURNS_SCOPE } from './idempotency.js';

/** How long a client's Idempotency-Key answers its first order (Stripe keeps 24 hours; a week covers a long outage). */
export const IDEMPOTENCY_KEY_TTL_MS = 7 * 86_400_000;

/**
 * The scopes of keys a client makes up per request (the Idempotency-Key header). The inbound scope
 * is left out: its key is the order's own identity at the channel (`order:<channel>:<externalId>`),
 * and a storefront that resends an order a month later must still not start it twice.
 */
export const EXPIRING_SCOPES = [API_ORDERS_SCOPE, `${API_ORDERS_SCOPE}.restart`, API_RETURNS_SCOPE, AGENT_ORDERS_SCOPE] as const;

/** Rows removed per statement, so a first purge after a long time never holds a long transaction. */
const PURGE_BATCH = 5_000;

/** How often the purge runs (each node; the deletes are idempotent). */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 60 * 60_000;

/** Deletes expired keys in batches; answers how many went. A repeat after expiry starts a new order. */
export async function purgeExpiredIdempotencyKeys(db: Db, now: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rowCount } = await db.maintenanceTx((tx) =>
      tx.query(
        `DELETE FROM idempotency_keys WHERE ctid IN (
           SELECT ctid FROM idempotency_keys WHERE scope = ANY($1::text[]) AND created_at < $2 LIMIT $3)`,
        [[...EXPIRING_SCOPES], now - IDEMPOTENCY_KEY_TTL_MS, PURGE_BATCH],
      ),
    );
    removed += rowCount ?? 0;
    if ((rowCount ?? 0) < PURGE_BATCH) return removed;
  }
}

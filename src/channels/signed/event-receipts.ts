// Receipts of delivered signed events: a replay of the same signed request inside the window delivers nothing again.
import type { PoolClient } from 'pg';
import type { Queryable } from '../../db/db.js';
import { SIGNATURE_SKEW_SECONDS } from './signature-header.js';

/** A signed request: the integration and the `v1` that verified (it binds `t` and the raw bytes). */
export interface ReceiptKey {
  integrationId: string;
  signature: string;
}

/** The same signed request was delivered already (thrown inside the delivery, so that delivery rolls back). */
export class DuplicateSignedRequest extends Error {
  constructor() {
    super('duplicate signed request');
    this.name = 'DuplicateSignedRequest';
  }
}

/** True when this signed request already delivered its event. */
export async function isDelivered(q: Queryable, key: ReceiptKey): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM signed_event_receipts WHERE integration_id = $1 AND signature = $2', [
    key.integrationId,
    key.signature,
  ]);
  return rows.length > 0;
}

/**
 * Records the receipt in the delivery's own transaction (the engine's `onDelivered` hook), so a
 * receipt exists exactly when the delivery committed. A copy that raced us to it throws
 * DuplicateSignedRequest: its delivery rolls back and it answers duplicate.
 */
export async function recordReceipt(
  tx: PoolClient,
  key: ReceiptKey,
  what: { orderId: string; event: string; signedAt: number; nodeId: string },
  now: number,
): Promise<void> {
  const inserted = await tx.query(
    `INSERT INTO signed_event_receipts (integration_id, signature, order_id, event, state, node_id, claimed_at, delivered_at, expires_at)
     VALUES ($1, $2, $3, $4, 'delivered', $5, $6, $6, $7) ON CONFLICT DO NOTHING`,
    [key.integrationId, key.signature, what.orderId, what.event, what.nodeId, now, what.signedAt + SIGNATURE_SKEW_SECONDS * 1000],
  );
  if (!inserted.rowCount) throw new DuplicateSignedRequest();
}

/** Drops receipts whose request is stale anyway (its timestamp left the 5-minute window); returns how many. */
export async function purgeReceipts(q: Queryable, now: number): Promise<number> {
  const res = await q.query('DELETE FROM signed_event_receipts WHERE expires_at < $1', [now]);
  return res.rowCount ?? 0;
}

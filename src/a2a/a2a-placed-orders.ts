// place_order once per messageId (spec "Following"): the claim row makes racing or repeated requests start one order.
import { createHash } from 'node:crypto';
import type { Db } from '../db/db.js';
import type { Clock } from '../engine/clock.js';
import { canonicalJson } from '../orders/canonical-json.js';
import { DomainError } from '../domain/errors.js';

/** The idempotency key of place_order for one caller's message: the same on every retry, 64 characters whatever the ids. */
export function placeOrderKey(owner: string, messageId: string): string {
  return createHash('sha256').update(`a2a\n${owner}\n${messageId}`).digest('hex');
}

export interface PlacedOrder {
  orderId: string;
  /** True when an earlier request with this messageId placed it. */
  replayed: boolean;
}

/**
 * Starts the order of `(owner, messageId)` at most once. The claim is inserted first and held
 * while `place` runs, so a racing request with the same id waits and then follows the same
 * order; the same id with another order body is refused (conflict); a failed `place` releases
 * the claim (nothing started, the caller may retry).
 */
export async function placeOnce(
  deps: { db: Db; clock: Clock },
  claim: { owner: string; messageId: string; taskId: string; body: unknown },
  place: () => Promise<string>,
): Promise<PlacedOrder> {
  const fingerprint = createHash('sha256').update(canonicalJson(claim.body)).digest('hex');
  return deps.db.tx(async (tx) => {
    const inserted = await tx.query(
      `INSERT INTO a2a_placed_orders (owner, message_id, fingerprint, task_id, order_id, created_at) VALUES ($1, $2, $3, $4, NULL, $5)
       ON CONFLICT (owner, message_id) DO NOTHING`,
      [claim.owner, claim.messageId, fingerprint, claim.taskId, deps.clock.now()],
    );
    if (!inserted.rowCount) {
      const { rows } = await tx.query<{ fingerprint: string; order_id: string | null }>(
        'SELECT fingerprint, order_id FROM a2a_placed_orders WHERE owner = $1 AND message_id = $2',
        [claim.owner, claim.messageId],
      );
      if (rows[0]?.fingerprint !== fingerprint || !rows[0].order_id)
        throw new DomainError('message_id_reused', `messageId ${claim.messageId} already placed a different order: send a new messageId per order`, 'conflict');
      return { orderId: rows[0].order_id, replayed: true };
    }
    const orderId = await place();
    await tx.query('UPDATE a2a_placed_orders SET order_id = $3 WHERE owner = $1 AND message_id = $2', [claim.owner, claim.messageId, orderId]);
    return { orderId, replayed: false };
  });
}

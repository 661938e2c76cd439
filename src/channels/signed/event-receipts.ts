// Receipts of delivered signed events: a replay of the same signed request inside the window delivers nothing again.
import type { Queryable } from '../../db/db.js';
import type { Clock } from '../../engine/clock.js';
import { DomainError } from '../../domain/errors.js';
import { SIGNATURE_SKEW_SECONDS } from './signature-header.js';

/** A signed request: the integration and the `v1` that verified (it binds `t` and the raw bytes). */
export interface ReceiptKey {
  integrationId: string;
  signature: string;
}

export type ReceiptClaim = { claimed: true } | { claimed: false; duplicate: true };

/**
 * A `delivering` claim older than this was left by a process that died mid-delivery: a copy of
 * the request then checks whether that delivery committed (duplicate) or takes the claim over.
 */
export const CLAIM_STALE_MS = 60_000;
/** How long a request waits for an identical one that is delivering right now before answering 409 (retry-safe). */
export const IN_FLIGHT_WAIT_MS = 10_000;
const POLL_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claims the request before delivering. An identical request already delivered: duplicate.
 * One delivering right now: wait for its outcome (delivered -> duplicate; it answered 409 and
 * released the claim -> claim again). So racing copies of one signed request deliver once.
 */
export async function claimReceipt(
  q: Queryable,
  clock: Clock,
  key: ReceiptKey,
  what: { orderId: string; event: string; signedAt: number },
): Promise<ReceiptClaim> {
  const waitUntil = clock.now() + IN_FLIGHT_WAIT_MS;
  for (;;) {
    const now = clock.now();
    const inserted = await q.query(
      `INSERT INTO signed_event_receipts (integration_id, signature, order_id, event, state, claimed_at, expires_at)
       VALUES ($1, $2, $3, $4, 'delivering', $5, $6) ON CONFLICT DO NOTHING`,
      [key.integrationId, key.signature, what.orderId, what.event, now, what.signedAt + SIGNATURE_SKEW_SECONDS * 1000],
    );
    if (inserted.rowCount) return { claimed: true };
    const { rows } = await q.query<{ state: string; claimed_at: string }>(
      'SELECT state, claimed_at FROM signed_event_receipts WHERE integration_id = $1 AND signature = $2',
      [key.integrationId, key.signature],
    );
    const row = rows[0];
    if (!row) continue; // released between our insert and select: claim again
    if (row.state === 'delivered') return { claimed: false, duplicate: true };
    if (now - Number(row.claimed_at) > CLAIM_STALE_MS) {
      // Left by a process that died mid-delivery: did its delivery commit before it died?
      const delivered = await deliveredSince(q, what.orderId, what.event, Number(row.claimed_at));
      if (delivered) {
        await confirmReceipt(q, key, delivered.nodeId, now);
        return { claimed: false, duplicate: true };
      }
      const taken = await q.query(
        `UPDATE signed_event_receipts SET claimed_at = $3 WHERE integration_id = $1 AND signature = $2 AND state = 'delivering' AND claimed_at = $4`,
        [key.integrationId, key.signature, now, row.claimed_at],
      );
      if (taken.rowCount) return { claimed: true };
      continue;
    }
    if (now > waitUntil) throw new DomainError('delivery_in_flight', 'The same signed request is being delivered; retry it', 409);
    await sleep(POLL_MS);
  }
}

/**
 * The engine's record of `event` reaching `orderId` at or after `since` (its `event.received`
 * timeline entry, written in the delivery's own commit). Used only for claims left by a crashed
 * process; another source delivering the same event to the same order in that window would be
 * taken for this request's delivery.
 */
async function deliveredSince(q: Queryable, orderId: string, event: string, since: number): Promise<{ nodeId: string | null } | null> {
  const { rows } = await q.query<{ node_id: string | null }>(
    `SELECT node_id FROM order_timeline WHERE order_id = $1 AND kind = 'event.received' AND data->>'event' = $2 AND at >= $3 ORDER BY id LIMIT 1`,
    [orderId, event, since],
  );
  return rows[0] ? { nodeId: rows[0].node_id } : null;
}

/** The event was delivered: later copies of the request are duplicates. */
export async function confirmReceipt(q: Queryable, key: ReceiptKey, nodeId: string | null, now: number): Promise<void> {
  await q.query(
    `UPDATE signed_event_receipts SET state = 'delivered', node_id = $3, delivered_at = $4 WHERE integration_id = $1 AND signature = $2`,
    [key.integrationId, key.signature, nodeId, now],
  );
}

/** Nothing was delivered (409, or an error): the request is not recorded and may be retried. */
export async function releaseReceipt(q: Queryable, key: ReceiptKey): Promise<void> {
  await q.query(`DELETE FROM signed_event_receipts WHERE integration_id = $1 AND signature = $2 AND state = 'delivering'`, [
    key.integrationId,
    key.signature,
  ]);
}

/** Drops receipts whose request is stale anyway (its timestamp left the 5-minute window); returns how many. */
export async function purgeReceipts(q: Queryable, now: number): Promise<number> {
  const res = await q.query('DELETE FROM signed_event_receipts WHERE expires_at < $1', [now]);
  return res.rowCount ?? 0;
}

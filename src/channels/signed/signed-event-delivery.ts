// POST /api/v1/webhooks/events after verification: scope, order visibility, replay receipts, delivery (spec "Signed events route").
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Engine } from '../../engine/engine-module.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { allowsEvent, seesChannel } from '../integrations/integration.js';
import type { VerifiedRequest } from './verify-signed-request.js';
import { DuplicateSignedRequest, isDelivered, recordReceipt, type ReceiptKey } from './event-receipts.js';

export interface SignedEventDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

export interface SignedEventBody {
  orderId: string;
  event: string;
  payload?: Record<string, unknown>;
}

/** Delivered (to `nodeId`, or earlier by a copy of the same signed request: `duplicate`), or nothing waits for it. */
export type SignedEventAnswer = { delivered: true; nodeId?: string; duplicate?: true } | { delivered: false };

/**
 * Forbidden when the integration may not deliver the event; not found for an unknown order and,
 * for a channel-bound integration, for an order on another channel (it cannot probe other channels'
 * ids). A copy of a signed request that already delivered answers `{ delivered: true, duplicate:
 * true }` and delivers nothing; `{ delivered: false }` when no node waits (not recorded, so the
 * same request may be retried; the HTTP route answers it 409).
 */
export async function deliverSignedEvent(deps: SignedEventDeps, verified: VerifiedRequest, body: SignedEventBody): Promise<SignedEventAnswer> {
  const { integration } = verified;
  if (!allowsEvent(integration, body.event)) throw forbidden(`This integration may not deliver the event ${body.event}`);
  const { rows } = await deps.db.query<{ channel: string }>('SELECT channel FROM orders WHERE id = $1', [body.orderId]);
  if (!rows[0] || !seesChannel(integration, rows[0].channel)) throw notFound('Order');

  const key: ReceiptKey = { integrationId: integration.id, signature: verified.signature };
  const duplicate: SignedEventAnswer = { delivered: true, duplicate: true };
  if (await isDelivered(deps.db, key)) return duplicate;
  try {
    // The receipt commits with the delivery itself (one transaction): exactly one copy of a request delivers.
    const result = await deps.engine.runtime.deliverEvent(body.orderId, body.event, body.payload ?? {}, (tx, nodeId) =>
      recordReceipt(tx, key, { orderId: body.orderId, event: body.event, signedAt: verified.signedAt, nodeId }, deps.clock.now()),
    );
    if (result.delivered) return { delivered: true, nodeId: result.nodeId };
    // Nothing waits: either a racing copy of this request just delivered (duplicate), or nothing did (409, not recorded).
    return (await isDelivered(deps.db, key)) ? duplicate : { delivered: false };
  } catch (err) {
    if (err instanceof DuplicateSignedRequest) return duplicate;
    throw err;
  }
}

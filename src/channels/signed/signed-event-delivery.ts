// POST /api/v1/webhooks/events after verification: scope, order visibility, replay receipts, delivery (spec "Signed events route").
import type { Db } from '../../db/db.js';
import type { Clock } from '../../engine/clock.js';
import type { Engine } from '../../engine/engine-module.js';
import type { DeliverResult } from '../../engine/runtime/order-runtime.js';
import { deliverOrderEvent } from '../../app/orders/order-commands.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { allowsEvent, seesChannel } from '../integrations/integration.js';
import type { VerifiedRequest } from './verify-signed-request.js';
import { claimReceipt, confirmReceipt, releaseReceipt, type ReceiptKey } from './event-receipts.js';

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

export interface SignedEventAnswer {
  status: 200 | 409;
  body: { delivered: boolean; nodeId?: string; duplicate?: true };
}

/**
 * 403 when the integration may not deliver the event; 404 for an unknown order and, for a
 * channel-bound integration, for an order on another channel (it cannot probe other channels'
 * ids). A copy of a signed request that already delivered answers 200 `{ delivered: true,
 * duplicate: true }` and delivers nothing; 409 `{ delivered: false }` when no node waits (not
 * recorded, so the same request may be retried).
 */
export async function deliverSignedEvent(deps: SignedEventDeps, verified: VerifiedRequest, body: SignedEventBody): Promise<SignedEventAnswer> {
  const { integration } = verified;
  if (!allowsEvent(integration, body.event)) throw forbidden(`This integration may not deliver the event ${body.event}`);
  const { rows } = await deps.db.query<{ channel: string }>('SELECT channel FROM orders WHERE id = $1', [body.orderId]);
  if (!rows[0] || !seesChannel(integration, rows[0].channel)) throw notFound('Order');

  const key: ReceiptKey = { integrationId: integration.id, signature: verified.signature };
  const claim = await claimReceipt(deps.db, deps.clock, key, { orderId: body.orderId, event: body.event, signedAt: verified.signedAt });
  if (!claim.claimed) return { status: 200, body: { delivered: true, duplicate: true } };
  let result: DeliverResult;
  try {
    result = await deliverOrderEvent(deps.engine, body.orderId, body.event, body.payload);
  } catch (err) {
    await releaseReceipt(deps.db, key);
    throw err;
  }
  if (!result.delivered) {
    await releaseReceipt(deps.db, key);
    return { status: 409, body: { delivered: false } };
  }
  await confirmReceipt(deps.db, key, result.nodeId ?? null, deps.clock.now());
  return { status: 200, body: { delivered: true, nodeId: result.nodeId } };
}

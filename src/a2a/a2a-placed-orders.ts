// place_order once per messageId (spec "Following"): the start's own idempotency key, derived from the caller and the messageId.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { AGENT_ORDERS_SCOPE, orderOfKey } from '../orders/idempotency.js';

/**
 * The idempotency key of place_order for one caller's message: the same on every retry, 64
 * characters whatever the ids. It is claimed inside the order's own start transaction (the one
 * record of REST's Idempotency-Key, scope `agents.place_order`), so racing or repeated requests
 * start one order, a crash cannot start a second, and no transaction is held around the start.
 */
export function placeOrderKey(owner: string, messageId: string): string {
  return createHash('sha256').update(`a2a\n${owner}\n${messageId}`).digest('hex');
}

/** The order started for `(owner, messageId)`, or null when none started (a failed start claimed nothing). */
export function orderPlacedFor(q: Queryable, owner: string, messageId: string): Promise<string | null> {
  return orderOfKey(q, AGENT_ORDERS_SCOPE, placeOrderKey(owner, messageId));
}

// The hold an agent or a batch means when it names none (resolve_hold without nodeId): the order's one held step.
import type { Queryable } from '../db/db.js';
import { conflict, notFound } from '../domain/errors.js';
import { openHolds } from '../engine/runtime/holds.js';

/** The node of the order's one open hold; an unknown order is a 404, none a conflict (`That node is not held`'s sibling). */
export async function soleHoldNode(q: Queryable, orderId: string): Promise<string> {
  const { rows } = await q.query('SELECT 1 FROM orders WHERE id = $1', [orderId]);
  if (rows.length === 0) throw notFound('Order');
  const holds = await openHolds(q, orderId);
  if (holds.length === 1) return holds[0].nodeId;
  if (holds.length === 0) throw conflict('The order has no held step');
  throw conflict(`The order holds ${holds.length} steps (${holds.map((h) => h.nodeId).join(', ')}): give nodeId`);
}

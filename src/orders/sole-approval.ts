// The approval an agent means when it names none (decide_approval without nodeId): the order's one open approval.
import type { Queryable } from '../db/db.js';
import { conflict, notFound } from '../domain/errors.js';
import { openWaits } from '../engine/runtime/waits.js';

/** The node of the order's one open approval; an unknown order is a 404, none or several a conflict naming what to do. */
export async function soleApprovalNode(q: Queryable, orderId: string): Promise<string> {
  const { rows } = await q.query('SELECT 1 FROM orders WHERE id = $1', [orderId]);
  if (rows.length === 0) throw notFound('Order');
  const approvals = (await openWaits(q, orderId)).filter((w) => w.kind === 'approval');
  if (approvals.length === 1) return approvals[0].nodeId;
  if (approvals.length === 0) throw conflict('The order is not waiting for an approval');
  throw conflict(`The order waits for ${approvals.length} approvals (${approvals.map((w) => w.nodeId).join(', ')}): give nodeId`);
}

// The order's timers not yet fired nor cancelled, as a move reads them (through the timers' order_id index).
import type { Queryable } from '../../db/db.js';
import type { PendingTimer } from './move-run.js';

export async function readPendingTimers(q: Queryable, orderId: string): Promise<PendingTimer[]> {
  const { rows } = await q.query<{ id: string; kind: string; node_id: string | null; run: number | null; due_at: string }>(
    'SELECT id, kind, node_id, run, due_at FROM timers WHERE order_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL',
    [orderId],
  );
  return rows.map((r) => ({ id: r.id, kind: r.kind, nodeId: r.node_id, run: r.run, dueAt: Number(r.due_at) }));
}

// Timeline entries of an order: what happened, when, at which node (kept across continue-as-new).
import type { Queryable } from '../../db/db.js';

export interface TimelineEntry {
  at: number;
  kind: string;
  message: string;
  nodeId: string | null;
  data: Record<string, unknown> | null;
}

/** The entries as the JSON rows `timelineInsertSql` reads. */
export function timelineJson(entries: TimelineEntry[]): Record<string, unknown>[] {
  return entries.map((e) => ({ at: e.at, kind: e.kind, message: e.message, node_id: e.nodeId, data: e.data }));
}

/** Appends the rows of `timelineJson` to order `orderSql` (placeholders or literals); shared with the slice write. */
export function timelineInsertSql(orderSql: string, rowsSql: string): string {
  return `INSERT INTO order_timeline (order_id, at, kind, message, node_id, data)
     SELECT ${orderSql}, e.at, e.kind, e.message, e.node_id, e.data
       FROM jsonb_to_recordset(${rowsSql}) AS e(at bigint, kind text, message text, node_id text, data jsonb)`;
}

export async function appendTimeline(q: Queryable, orderId: string, entries: TimelineEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await q.query(timelineInsertSql('$1', '$2::jsonb'), [orderId, JSON.stringify(timelineJson(entries))]);
}

export async function readTimeline(q: Queryable, orderId: string, limit = 500): Promise<TimelineEntry[]> {
  const { rows } = await q.query(
    'SELECT at, kind, message, node_id, data FROM (SELECT * FROM order_timeline WHERE order_id = $1 ORDER BY id DESC LIMIT $2) t ORDER BY id',
    [orderId, limit],
  );
  return rows.map((r) => ({ at: Number(r.at), kind: r.kind, message: r.message, nodeId: r.node_id, data: r.data }));
}

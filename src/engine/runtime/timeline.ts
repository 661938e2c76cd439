// Timeline entries of an order: what happened, when, at which node (kept across continue-as-new), one chunk row per write.
import type { Queryable } from '../../db/db.js';

export interface TimelineEntry {
  at: number;
  kind: string;
  message: string;
  nodeId: string | null;
  data: Record<string, unknown> | null;
}

/** The entries as one chunk's JSON array: null fields left out (`readTimeline` restores them). */
export function timelineJson(entries: TimelineEntry[]): Record<string, unknown>[] {
  return entries.map((e) => {
    const stored: Record<string, unknown> = { at: e.at, kind: e.kind, message: e.message };
    if (e.nodeId !== null) stored.nodeId = e.nodeId;
    if (e.data !== null) stored.data = e.data;
    return stored;
  });
}

/** Appends the entries `rowsSql` (`timelineJson`) to order `orderSql` (placeholders or literals) as one chunk; shared with the slice write. */
export function timelineInsertSql(orderSql: string, rowsSql: string): string {
  return `INSERT INTO order_timeline_chunks (order_id, entries) VALUES (${orderSql}, ${rowsSql})`;
}

export async function appendTimeline(q: Queryable, orderId: string, entries: TimelineEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await q.query(timelineInsertSql('$1', '$2::json'), [orderId, JSON.stringify(timelineJson(entries))]);
}

/** One stored entry as `timelineJson` wrote it (null fields left out). */
interface StoredTimelineEntry {
  at: number;
  kind: string;
  message: string;
  nodeId?: string | null;
  data?: Record<string, unknown> | null;
}

/** The order's last `limit` entries, oldest first. */
export async function readTimeline(q: Queryable, orderId: string, limit = 500): Promise<TimelineEntry[]> {
  // Every chunk holds at least one entry, so the last `limit` chunks hold the last `limit` entries.
  const { rows } = await q.query<{ v: StoredTimelineEntry }>(
    `SELECT e.v FROM (SELECT id, entries FROM order_timeline_chunks WHERE order_id = $1 ORDER BY id DESC LIMIT $2) c
       CROSS JOIN LATERAL json_array_elements(c.entries) WITH ORDINALITY AS e(v, pos)
      ORDER BY c.id DESC, e.pos DESC LIMIT $2`,
    [orderId, limit],
  );
  return rows.reverse().map(({ v }) => ({ at: Number(v.at), kind: v.kind, message: v.message, nodeId: v.nodeId ?? null, data: v.data ?? null }));
}

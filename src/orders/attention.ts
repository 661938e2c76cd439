// needs_attention: open approvals oldest first, orders that failed lately, orders stuck on a business event, held steps.
import type { Queryable } from '../db/db.js';
import { toApprovalWait, type ApprovalWait, type ApprovalWaitDbRow } from './approval-inbox.js';
import { LIST_COLUMNS, toListRow, type ListDbRow, type OrderListRow } from './order-list.js';

/** How far back failed and rolled-back orders count (contract section 11: the last 3 days). */
export const FAILED_WINDOW_MS = 3 * 86_400_000;
/** How long an order waits on a business event before it needs attention (over a day). */
export const STUCK_AFTER_MS = 86_400_000;
/** Each list is capped; the counts say how many there are in all. */
export const ATTENTION_LIST_MAX = 100;

/** An open approval as needs_attention lists it. */
export type OpenApproval = ApprovalWait;

export interface Attention {
  approvals: OpenApproval[];
  failed: OrderListRow[];
  waiting: (OrderListRow & { event: string | null; since: number })[];
  /** Orders whose step is held (contract 16), longest held first. */
  held: (OrderListRow & { nodeId: string; title: string; error: string; since: number })[];
  counts: { approvals: number; failed: number; waiting: number; held: number };
}

export async function needsAttention(q: Queryable, now: number): Promise<Attention> {
  const [approvals, failed, waiting, held] = await Promise.all([
    q.query<ApprovalWaitDbRow & { n: string }>(
      `SELECT w.order_id, w.node_id, w.title, w.assignee, w.amount_minor, w.deadline, w.since, o.currency, o.title AS order_title,
              count(*) OVER () AS n
         FROM order_waits w JOIN orders o ON o.id = w.order_id AND o.generation = w.generation
        WHERE w.kind = 'approval' AND w.status = 'open'
        ORDER BY w.since, w.order_id LIMIT $1`,
      [ATTENTION_LIST_MAX],
    ),
    q.query<ListDbRow & { n: string }>(
      `SELECT ${LIST_COLUMNS}, count(*) OVER () AS n FROM orders
        WHERE status IN ('failed', 'rolled_back') AND updated_at >= $1
        ORDER BY updated_at DESC, id DESC LIMIT $2`,
      [now - FAILED_WINDOW_MS, ATTENTION_LIST_MAX],
    ),
    q.query<ListDbRow & { wait_event: string | null; wait_since: string; n: string }>(
      `SELECT ${LIST_COLUMNS.replace(/(\w+)/g, 'o.$1')}, w.event AS wait_event, w.since AS wait_since, count(*) OVER () AS n
         FROM order_waits w JOIN orders o ON o.id = w.order_id AND o.generation = w.generation
        WHERE w.kind = 'event' AND w.status = 'open' AND w.since <= $1 AND o.return_of IS NULL
        ORDER BY w.since, o.id LIMIT $2`,
      [now - STUCK_AFTER_MS, ATTENTION_LIST_MAX],
    ),
    q.query<ListDbRow & { hold_node: string; hold_title: string; hold_error: string; hold_since: string; n: string }>(
      `SELECT ${LIST_COLUMNS.replace(/(\w+)/g, 'o.$1')}, h.node_id AS hold_node, h.title AS hold_title, h.error AS hold_error, h.since AS hold_since,
              count(*) OVER () AS n
         FROM order_holds h JOIN orders o ON o.id = h.order_id AND o.generation = h.generation
        WHERE h.status = 'open'
        ORDER BY h.since, o.id LIMIT $1`,
      [ATTENTION_LIST_MAX],
    ),
  ]);
  const total = (rows: readonly { n?: unknown }[]) => (rows.length === 0 ? 0 : Number(rows[0].n));
  return {
    approvals: approvals.rows.map(toApprovalWait),
    failed: failed.rows.map(toListRow),
    waiting: waiting.rows.map((r) => ({ ...toListRow(r), event: r.wait_event, since: Number(r.wait_since) })),
    held: held.rows.map((r) => ({ ...toListRow(r), nodeId: r.hold_node, title: r.hold_title, error: r.hold_error, since: Number(r.hold_since) })),
    counts: { approvals: total(approvals.rows), failed: total(failed.rows), waiting: total(waiting.rows), held: total(held.rows) },
  };
}

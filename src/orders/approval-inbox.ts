// The approvals inbox (contract section 13): approval waits by status, oldest first, with their order's title and total.
import type { Queryable } from '../db/db.js';
import { fromMinor } from '../domain/money.js';

/** The inbox filters: pending is an open wait; escalated is one nobody decided before its timeout. */
export const INBOX_STATUSES = ['pending', 'approved', 'rejected', 'escalated', 'all'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export const INBOX_LIMIT = 200;

/** An approval wait with its order's title, amounts in the order currency (the inbox and needs_attention). */
export interface ApprovalWait {
  orderId: string;
  nodeId: string;
  title: string | null;
  assignee: string | null;
  amount: number | null;
  currency: string;
  deadline: number | null;
  since: number;
  orderTitle: string | null;
}

export interface InboxRow extends ApprovalWait {
  /** pending, approved, rejected, escalated or cancelled. */
  outcome: string;
  decidedBy: string | null;
  note: string | null;
  closedAt: number | null;
  orderStatus: string;
}

/** An `order_waits` row joined with its order's `currency` and `title AS order_title` (bigint columns as text). */
export interface ApprovalWaitDbRow {
  order_id: string;
  node_id: string;
  title: string | null;
  assignee: string | null;
  amount_minor: string | null;
  deadline: string | null;
  since: string;
  currency: string;
  order_title: string | null;
}

/** An `order_waits` row joined with its order's `currency` and `title AS order_title`. */
export function toApprovalWait(r: ApprovalWaitDbRow): ApprovalWait {
  return {
    orderId: r.order_id,
    nodeId: r.node_id,
    title: r.title,
    assignee: r.assignee,
    amount: r.amount_minor === null ? null : fromMinor(Number(r.amount_minor), r.currency),
    currency: r.currency,
    deadline: r.deadline === null ? null : Number(r.deadline),
    since: Number(r.since),
    orderTitle: r.order_title,
  };
}

const WAIT_STATUS: Record<Exclude<InboxStatus, 'all'>, string> = { pending: 'open', approved: 'approved', rejected: 'rejected', escalated: 'escalated' };

/** At most `INBOX_LIMIT` rows of the current run of each order (a restarted generation's old waits are not listed). */
export async function listApprovalInbox(q: Queryable, status: InboxStatus): Promise<InboxRow[]> {
  const { rows } = await q.query<ApprovalWaitDbRow & { status: string; decided_by: string | null; note: string | null; closed_at: string | null; order_status: string }>(
    `SELECT w.order_id, w.node_id, w.title, w.assignee, w.amount_minor, w.deadline, w.since, w.status, w.decided_by, w.note, w.closed_at,
            o.currency, o.title AS order_title, o.status AS order_status
       FROM order_waits w JOIN orders o ON o.id = w.order_id AND o.generation = w.generation
      WHERE w.kind = 'approval' AND ($1::text IS NULL OR w.status = $1)
      ORDER BY w.since, w.order_id, w.node_id LIMIT $2`,
    [status === 'all' ? null : WAIT_STATUS[status], INBOX_LIMIT],
  );
  return rows.map((r) => ({
    ...toApprovalWait(r),
    outcome: r.status === 'open' ? 'pending' : r.status,
    decidedBy: r.decided_by,
    note: r.note,
    closedAt: r.closed_at === null ? null : Number(r.closed_at),
    orderStatus: r.order_status,
  }));
}

// Open and closed waits of an order (order_waits); approval waits are also the approvals inbox.
import type { Queryable } from '../../db/db.js';

export interface WaitRow {
  orderId: string;
  nodeId: string;
  run: number;
  generation: number;
  kind: 'approval' | 'event' | 'delay';
  title: string | null;
  event: string | null;
  assignee: string | null;
  amountMinor: number | null;
  deadline: number | null;
  since: number;
  status: string;
  decidedBy: string | null;
  note: string | null;
  closedAt: number | null;
  timerId: string | null;
}

/** An `order_waits` row: bigint columns arrive as text from a query, as numbers from the lock read's JSON. */
export interface WaitDbRow {
  order_id: string;
  node_id: string;
  run: number;
  generation: number;
  kind: WaitRow['kind'];
  title: string | null;
  event: string | null;
  assignee: string | null;
  amount_minor: string | number | null;
  deadline: string | number | null;
  since: string | number;
  status: string;
  decided_by: string | null;
  note: string | null;
  closed_at: string | number | null;
  timer_id: string | null;
}

/** A wait from an `order_waits` row. */
export function toWait(r: WaitDbRow): WaitRow {
  return {
    orderId: r.order_id,
    nodeId: r.node_id,
    run: r.run,
    generation: r.generation,
    kind: r.kind,
    title: r.title,
    event: r.event,
    assignee: r.assignee,
    amountMinor: r.amount_minor === null ? null : Number(r.amount_minor),
    deadline: r.deadline === null ? null : Number(r.deadline),
    since: Number(r.since),
    status: r.status,
    decidedBy: r.decided_by,
    note: r.note,
    closedAt: r.closed_at === null ? null : Number(r.closed_at),
    timerId: r.timer_id,
  };
}

export async function openWaits(q: Queryable, orderId: string): Promise<WaitRow[]> {
  const { rows } = await q.query<WaitDbRow>("SELECT * FROM order_waits WHERE order_id = $1 AND status = 'open' ORDER BY since, node_id", [orderId]);
  return rows.map(toWait);
}

export async function insertWait(q: Queryable, w: Omit<WaitRow, 'status' | 'decidedBy' | 'note' | 'closedAt'>): Promise<void> {
  await q.query(
    `INSERT INTO order_waits (order_id, node_id, run, generation, kind, title, event, assignee, amount_minor, deadline, since, status, timer_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12)`,
    [w.orderId, w.nodeId, w.run, w.generation, w.kind, w.title, w.event, w.assignee, w.amountMinor, w.deadline, w.since, w.timerId],
  );
}

/** Closes one wait with its outcome (`approved`, `received`, `timeout`, `cancelled` …). */
export async function closeWait(
  q: Queryable,
  w: Pick<WaitRow, 'orderId' | 'nodeId' | 'run' | 'generation'>,
  status: string,
  now: number,
  decidedBy: string | null = null,
  note: string | null = null,
): Promise<void> {
  await q.query(
    `UPDATE order_waits SET status = $5, closed_at = $6, decided_by = $7, note = $8
      WHERE order_id = $1 AND node_id = $2 AND run = $3 AND generation = $4 AND status = 'open'`,
    [w.orderId, w.nodeId, w.run, w.generation, status, now, decidedBy, note],
  );
}

// Held steps of an order (order_holds, contract 16): a step that failed with `onFailure: "hold"` parks its order here until resolved.
import type { Queryable } from '../../db/db.js';

/** How a hold ended: the operator's retry or rollback, or a cancel of the order. */
export type HoldStatus = 'open' | 'retried' | 'rolled_back' | 'cancelled';

export interface HoldRow {
  orderId: string;
  nodeId: string;
  /** The node's run: a retry continues it, so a second hold of the same run differs by `number`. */
  run: number;
  generation: number;
  /** The node's nth hold in this run (1, 2, …): order.held's id includes it, so each hold is a new delivery. */
  number: number;
  /** `<node label> failed: <error>`. */
  title: string;
  error: string;
  /** The failure was terminal: a rollback then ends the order `failed` (else `rolled_back`), as without the hold. */
  terminal: boolean;
  since: number;
  status: HoldStatus;
  resolvedBy: string | null;
  note: string | null;
  closedAt: number | null;
}

/** The key of one hold within its order. */
export type HoldKey = Pick<HoldRow, 'nodeId' | 'run' | 'generation' | 'number'>;

/** An `order_holds` row: bigint columns arrive as text from a query, as numbers from the lock read's JSON. */
export interface HoldDbRow {
  order_id: string;
  node_id: string;
  run: number;
  generation: number;
  number: number;
  title: string;
  error: string;
  terminal: boolean;
  since: string | number;
  status: HoldStatus;
  resolved_by: string | null;
  note: string | null;
  closed_at: string | number | null;
}

export function toHold(r: HoldDbRow): HoldRow {
  return {
    orderId: r.order_id,
    nodeId: r.node_id,
    run: r.run,
    generation: r.generation,
    number: r.number,
    title: r.title,
    error: r.error,
    terminal: r.terminal,
    since: Number(r.since),
    status: r.status,
    resolvedBy: r.resolved_by,
    note: r.note,
    closedAt: r.closed_at === null ? null : Number(r.closed_at),
  };
}

export function sameHold(a: HoldKey, b: HoldKey): boolean {
  return a.nodeId === b.nodeId && a.run === b.run && a.generation === b.generation && a.number === b.number;
}

/** The order's open holds, oldest first (at most one while the machine stands at one node). */
export async function openHolds(q: Queryable, orderId: string): Promise<HoldRow[]> {
  const { rows } = await q.query<HoldDbRow>("SELECT * FROM order_holds WHERE order_id = $1 AND status = 'open' ORDER BY since, node_id", [orderId]);
  return rows.map(toHold);
}

/** A hold the slice closed (it was open before the slice). */
export interface HoldClose extends HoldKey {
  status: HoldStatus;
  closedAt: number;
  resolvedBy: string | null;
  note: string | null;
}

/** The slice-write part that inserts holds (`order` and `json` are its placeholders). */
export function holdInsertSql(order: string, json: string): string {
  return `INSERT INTO order_holds (order_id, node_id, run, generation, number, title, error, terminal, since, status, resolved_by, note, closed_at)
     SELECT ${order}, h.node_id, h.run, h.generation, h.number, h.title, h.error, h.terminal, h.since, h.status, h.resolved_by, h.note, h.closed_at
       FROM jsonb_to_recordset(${json}) AS h(node_id text, run int, generation int, number int, title text, error text, terminal boolean, since bigint,
            status text, resolved_by text, note text, closed_at bigint)
     ON CONFLICT DO NOTHING`;
}

export function holdsJson(holds: readonly HoldRow[]): unknown[] {
  return holds.map((h) => ({
    node_id: h.nodeId,
    run: h.run,
    generation: h.generation,
    number: h.number,
    title: h.title,
    error: h.error,
    terminal: h.terminal,
    since: h.since,
    status: h.status,
    resolved_by: h.resolvedBy,
    note: h.note,
    closed_at: h.closedAt,
  }));
}

/** The slice-write part that closes holds opened before the slice. */
export function holdCloseSql(order: string, json: string): string {
  return `UPDATE order_holds h SET status = c.status, closed_at = c.closed_at, resolved_by = c.resolved_by, note = c.note
       FROM jsonb_to_recordset(${json}) AS c(node_id text, run int, generation int, number int, status text, closed_at bigint, resolved_by text, note text)
      WHERE h.order_id = ${order} AND h.node_id = c.node_id AND h.run = c.run AND h.generation = c.generation AND h.number = c.number AND h.status = 'open'`;
}

export function holdClosesJson(closes: readonly HoldClose[]): unknown[] {
  return closes.map((c) => ({
    node_id: c.nodeId,
    run: c.run,
    generation: c.generation,
    number: c.number,
    status: c.status,
    closed_at: c.closedAt,
    resolved_by: c.resolvedBy,
    note: c.note,
  }));
}

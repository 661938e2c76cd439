// The unfinished orders of one flow version by the node where each stands (contract 14's liveOrders): one indexed query.
import type { Queryable } from '../../db/db.js';

export interface LiveOrdersAtNodes {
  /** Unfinished orders (queued, running, waiting) pinned to the version. */
  total: number;
  /** Of those, how many stand at each node: parked there (an open wait, a hold, a retry timer) or running its step. */
  atNode: Record<string, number>;
}

/** The count's statement ($1 flow id, $2 version): exported so a test can check the planner's use of the index. */
export const LIVE_ORDERS_AT_NODES_SQL = `SELECT snapshot->>'value' AS node, count(*)::int AS n FROM orders
  WHERE flow_id = $1 AND flow_version = $2 AND status IN ('queued', 'running', 'waiting')
  GROUP BY 1`;

/**
 * Counts by the machine state each order's snapshot stands in (`snapshot->>'value'`: the node an
 * open wait, a held step, a pending retry or a call out keeps it at). The status list is written
 * out so the planner matches the partial index `orders_live_version_idx` (migration 0021); a queued
 * order that has not started stands at no node and counts only in the total.
 */
export async function liveOrdersAtNodes(q: Queryable, flowId: string, version: number): Promise<LiveOrdersAtNodes> {
  const { rows } = await q.query<{ node: string | null; n: number }>(LIVE_ORDERS_AT_NODES_SQL, [flowId, version]);
  const atNode: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    total += r.n;
    if (r.node !== null) atNode[r.node] = (atNode[r.node] ?? 0) + r.n;
  }
  return { total, atNode };
}

// get_order for agents: the order's status, what it waits on and where each answer leads, the steps run, recent activity.
import type { Db } from '../db/db.js';
import type { Engine } from '../engine/engine-module.js';
import { readOrderView, type OrderView } from './order-view.js';

/** How many timeline entries `activity` keeps, newest last (contract section 11: the latest 20). */
export const ACTIVITY_ENTRIES = 20;

/** A compact reading of the live state, for a caller that reasons over it rather than draws it. */
export function orderBrief(view: OrderView) {
  const nodes = view.nodes;
  const labelOf = (id: string) => nodes[id]?.label ?? id;
  return {
    orderId: view.orderId,
    status: view.status,
    reason: view.reason,
    order: view.order,
    waits: view.waits.map((w) => ({
      ...w,
      label: labelOf(w.nodeId),
      // branch -> the label of the node it leads to: what approving, rejecting or the event would do next.
      leadsTo: Object.fromEntries(view.edges.filter((e) => e.from === w.nodeId).map((e) => [e.branch, labelOf(e.to)])),
    })),
    timers: view.timers,
    // Held steps (contract 16): resolve_hold retries or rolls back each.
    holds: view.holds.map((h) => ({ ...h, label: labelOf(h.nodeId) })),
    steps: Object.values(nodes)
      .filter((n) => n.runs > 0 || n.status !== 'pending')
      .sort((a, b) => (a.startedAt ?? Number.MAX_SAFE_INTEGER) - (b.startedAt ?? Number.MAX_SAFE_INTEGER))
      .map((n) => ({ nodeId: n.id, label: n.label ?? n.id, type: n.type, status: n.status, runs: n.runs, summary: n.summary, error: n.error, durationMs: n.durationMs ?? null })),
    activity: view.timeline.slice(-ACTIVITY_ENTRIES),
  };
}

/** The brief of one order, read as its live state; 404 for an unknown order. */
export async function readOrderBrief(db: Db, engine: Engine, orderId: string): Promise<ReturnType<typeof orderBrief>> {
  return orderBrief(await readOrderView(db, engine, orderId));
}

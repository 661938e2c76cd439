// The order live state of GET /api/v1/orders/:id (spec "Order live state"), projected from tables.
import type { Queryable } from '../db/db.js';
import type { FlowRegistry } from '../engine/flows/flow-registry.js';
import { fromMinor } from '../domain/money.js';
import { toNodeRecords, type StoredNodeRecord } from '../engine/runtime/node-record.js';
import { liveEdges, liveNodes } from './live-graph.js';
import { toOrderRow, type OrderDbRow, type OrderRow } from './order-row.js';
import { readOrderLines } from '../commerce/order-lines-repo.js';
import { liveOrder, liveWaits } from './live-order.js';
import { readTimeline } from '../engine/runtime/timeline.js';
import { openWaits } from '../engine/runtime/waits.js';
import { TIMER_KINDS } from '../engine/run/run-timers.js';
import { isFinished } from '../engine/runtime/run-row.js';
import { returnableUnits } from '../domain/return-math.js';
import { returnRefusal, returnWindowEndsAt } from '../domain/return-window.js';
import { coveredUnits, payoutState, readReturnFacts, type ReturnFacts } from './return-ledger.js';
import { openHolds } from '../engine/runtime/holds.js';

/** Step retries the order waits out now (their durable timers), oldest due first. */
async function pendingRetries(q: Queryable, orderId: string): Promise<{ nodeId: string; since: number; until: number }[]> {
  const { rows } = await q.query<{ node_id: string; due_at: string; created_at: string }>(
    'SELECT node_id, due_at, created_at FROM timers WHERE order_id = $1 AND kind = $2 AND fired_at IS NULL AND cancelled_at IS NULL ORDER BY due_at',
    [orderId, TIMER_KINDS.stepRetry],
  );
  return rows.map((r) => ({ nodeId: r.node_id, since: Number(r.created_at), until: Number(r.due_at) }));
}

/** Returns null for an unknown order. */
export async function readLiveState(q: Queryable, flows: FlowRegistry, orderId: string) {
  // The orders row carries the node records (`orders.nodes`): one read for both.
  const { rows } = await q.query<OrderDbRow & { nodes: Record<string, StoredNodeRecord> }>('SELECT * FROM orders WHERE id = $1', [orderId]);
  if (!rows[0]) return null;
  const order = toOrderRow(rows[0]);
  const records = toNodeRecords(rows[0].nodes);
  const [{ version, compiled }, waits, holds, timeline, lines, retries, facts] = await Promise.all([
    flows.load(q, order.flowId, order.flowVersion),
    openWaits(q, orderId),
    openHolds(q, orderId),
    readTimeline(q, orderId),
    readOrderLines(q, orderId, { includeDropped: true }),
    isFinished(order.status) ? Promise.resolve([]) : pendingRetries(q, orderId),
    // A return has no returns of its own.
    order.returnOf === null ? readReturnFacts(q, orderId) : Promise.resolve(null),
  ]);
  const nodes = liveNodes(compiled, records);
  const labelOf = (id: string) => compiled.nodes.get(id)?.node.label ?? id;
  // Timer waits: a delay (wait.delay, a return window) and a step's retry backoff, each with when it resumes.
  const timers = [
    ...waits.filter((w) => w.kind === 'delay' && w.deadline !== null).map((w) => ({ nodeId: w.nodeId, kind: 'delay' as const, label: labelOf(w.nodeId), since: w.since, until: w.deadline! })),
    ...retries.map((r) => ({ ...r, kind: 'retry' as const, label: labelOf(r.nodeId) })),
  ].sort((a, b) => a.until - b.until);
  const edges = liveEdges(compiled, records);
  return {
    orderId: order.id,
    status: order.status,
    reason: order.reason,
    order: { ...liveOrder(order, { flowVersion: order.flowVersion, restartedFrom: order.restartedFrom }, lines), returnOf: order.returnOf },
    flow: { id: order.flowId, version: order.flowVersion, name: version.name, graph: version.graph },
    nodes,
    edges,
    waits: liveWaits(waits, order.currency),
    timers,
    // Held steps (contract 16): each waits for an operator's retry or rollback.
    holds: holds.map((h) => ({ nodeId: h.nodeId, title: h.title, error: h.error, since: h.since })),
    vars: order.vars,
    ...returnsView(order, facts, payoutState(compiled, records)),
    timeline: timeline.map((t) => ({ at: t.at, kind: t.kind, message: t.message, nodeId: t.nodeId, data: t.data })),
    instanceId: order.instanceId,
    generation: order.generation,
    ...(order.rollback ? { rollback: order.rollback } : {}),
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

/**
 * The order's returns (contract 18: `returns: [{ returnId, status, lines, amount }]`, with the
 * reason and when each started) and what may still be returned: the units left per SKU and seller,
 * or why no return may start (`closed`; the time is not checked here: `windowEndsAt` says when the
 * window of a flow without a payout node closes). A return lists none.
 */
function returnsView(order: OrderRow, facts: ReturnFacts | null, payout: { hasPayoutNode: boolean; payoutRan: boolean }) {
  const c = order.currency;
  if (!facts) return { returns: [], returnable: { lines: [], closed: `${order.id} is a return: a return cannot itself be returned`, windowEndsAt: null } };
  const refusal = returnRefusal({ orderId: order.id, status: order.status, isReturn: false, capturedAt: facts.capturedAt, ...payout, windowDays: facts.windowDays, now: null });
  return {
    returns: facts.returns.map((r) => ({
      returnId: r.returnId,
      status: r.status,
      lines: r.lines.map((l) => ({ sku: l.sku, sellerId: l.sellerId, qty: l.qty, amount: fromMinor(l.amountMinor, c) })),
      amount: fromMinor(r.amountMinor, c),
      reason: r.reason,
      createdAt: r.createdAt,
    })),
    returnable: {
      lines: refusal ? [] : returnableUnits(facts.lines, coveredUnits(facts.returns)),
      closed: refusal?.message ?? null,
      windowEndsAt: payout.hasPayoutNode ? null : returnWindowEndsAt(facts.capturedAt, facts.windowDays),
    },
  };
}

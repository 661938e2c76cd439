// The order live state of GET /api/v1/orders/:id (spec "Order live state"), projected from tables.
import type { Queryable } from '../db/db.js';
import type { FlowRegistry } from '../engine/flows/flow-registry.js';
import { fromMinor } from '../domain/money.js';
import { toNodeRecords, type StoredNodeRecord } from '../engine/runtime/node-record.js';
import { liveEdges, liveNodes } from './live-graph.js';
import { toOrderRow, type OrderDbRow } from '../engine/runtime/order-row.js';
import type { OrderLineDbRow } from '../commerce/order-lines-repo.js';
import { orderSummary } from '../engine/runtime/order-summary.js';
import { readTimeline } from '../engine/runtime/timeline.js';
import { openWaits } from '../engine/runtime/waits.js';

/** Returns null for an unknown order. */
export async function readLiveState(q: Queryable, flows: FlowRegistry, orderId: string) {
  // The orders row carries the node records (`orders.nodes`): one read for both.
  const { rows } = await q.query<OrderDbRow & { nodes: Record<string, StoredNodeRecord> }>('SELECT * FROM orders WHERE id = $1', [orderId]);
  if (!rows[0]) return null;
  const order = toOrderRow(rows[0]);
  const records = toNodeRecords(rows[0].nodes);
  const [{ version, compiled }, waits, timeline, lines] = await Promise.all([
    flows.load(q, order.flowId, order.flowVersion),
    openWaits(q, orderId),
    readTimeline(q, orderId),
    q.query<OrderLineDbRow>('SELECT * FROM order_lines WHERE order_id = $1 ORDER BY line_no', [orderId]),
  ]);
  const nodes = liveNodes(compiled, records);
  const edges = liveEdges(compiled, records);
  return {
    orderId: order.id,
    status: order.status,
    reason: order.reason,
    order: {
      ...orderSummary(order),
      contactEmail: order.contactEmail,
      flowId: order.flowId,
      flowVersion: order.flowVersion,
      input: order.input,
      meta: order.meta,
      restartedFrom: order.restartedFrom,
      lines: lines.rows.map((l) => ({
        sku: l.sku,
        name: l.name,
        qty: l.qty,
        unitPrice: l.unit_price_minor === null ? null : fromMinor(Number(l.unit_price_minor), order.currency),
        sellerId: l.seller_id,
        locationId: l.location_id,
        dropped: l.dropped,
      })),
      createdAt: order.createdAt,
    },
    flow: { id: order.flowId, version: order.flowVersion, name: version.name, graph: version.graph },
    nodes,
    edges,
    // Delays hold the run too (status waiting, listed in waitingOn) but are neither approvals nor events.
    waits: waits.filter((w): w is typeof w & { kind: 'approval' | 'event' } => w.kind !== 'delay').map((w) => ({
      nodeId: w.nodeId,
      kind: w.kind,
      title: w.title,
      event: w.event,
      assignee: w.assignee,
      amount: w.amountMinor === null ? null : fromMinor(w.amountMinor, order.currency),
      deadline: w.deadline,
      since: w.since,
    })),
    vars: order.vars,
    timeline: timeline.map((t) => ({ at: t.at, kind: t.kind, message: t.message, nodeId: t.nodeId, data: t.data })),
    instanceId: order.instanceId,
    generation: order.generation,
    ...(order.rollback ? { rollback: order.rollback } : {}),
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

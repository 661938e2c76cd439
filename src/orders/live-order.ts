// The live state's order and waits (spec "Order live state"), as GET /api/v1/orders/:id and a simulation project them.
import type { OrderLineRow } from '../commerce/order-lines-repo.js';
import type { CommerceOrderFacts } from '../commerce/commerce-order.js';
import { orderSummary } from '../commerce/order-summary.js';
import { fromMinor } from '../domain/money.js';
import type { WaitRow } from '../engine/runtime/waits.js';

/** What the live state's `order` is made of: the order's id, facts and start, and the run's flow, input and meta. */
export interface LiveOrderSource extends CommerceOrderFacts {
  id: string;
  flowId: string;
  input: Record<string, unknown>;
  meta: Record<string, unknown>;
  createdAt: number;
}

/** The live state's `order`: its summary, contact, flow, input and meta, and its lines with prices in the order currency. */
export function liveOrder(order: LiveOrderSource, at: { flowVersion: number | null; restartedFrom: string | null }, lines: readonly OrderLineRow[]) {
  return {
    ...orderSummary(order.id, order),
    contactEmail: order.contactEmail,
    flowId: order.flowId,
    flowVersion: at.flowVersion,
    input: order.input,
    meta: order.meta,
    restartedFrom: at.restartedFrom,
    lines: lines.map((l) => ({
      sku: l.sku,
      name: l.name,
      qty: l.qty,
      unitPrice: l.unitPriceMinor === null ? null : fromMinor(l.unitPriceMinor, order.currency),
      sellerId: l.sellerId,
      locationId: l.locationId,
      dropped: l.dropped,
    })),
    createdAt: order.createdAt,
  };
}

/** The live state's `waits`: approvals and events (delays hold the run too, but are neither), amounts in the order currency. */
export function liveWaits(waits: readonly WaitRow[], currency: string) {
  return waits
    .filter((w): w is WaitRow & { kind: 'approval' | 'event' } => w.kind !== 'delay')
    .map((w) => ({
      nodeId: w.nodeId,
      kind: w.kind,
      title: w.title,
      event: w.event,
      assignee: w.assignee,
      amount: w.amountMinor === null ? null : fromMinor(w.amountMinor, currency),
      deadline: w.deadline,
      since: w.since,
    }));
}

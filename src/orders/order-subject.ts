// The commerce order as the engine's OrderSubject: the facts it carries, the summary events carry, a return's events filed under its order.
import type { OrderFacts, OrderSubject } from '../engine/order-subject.js';
import { asCommerceFacts, commerceOrderColumns, toCommerceOrderFacts, type CommerceOrderColumns } from '../commerce/commerce-order.js';
import { orderSummary } from '../commerce/order-summary.js';

/** The one event a return sends (contract 18): its refund, as its order's. */
const RETURN_EVENTS: ReadonlySet<string> = new Set(['order.refunded']);

/**
 * What the service hands `createEngine` as `subject` (server/engine-service-module.ts). A return's
 * run (its facts name `returnOf`) sends no event of its own: only `order.refunded`, filed under the
 * order it returns from (`data.returnId` names the return; the step may put that order's summary in
 * `data.order`), and each of its changes also concerns that order (the live views, return-links.ts).
 */
export const ordersSubject: OrderSubject = {
  read: (row) => toCommerceOrderFacts(row as CommerceOrderColumns),
  columns: commerceOrderColumns,
  summary: (orderId, facts) => ({ ...orderSummary(orderId, asCommerceFacts(facts)) }),
  fileEvent: (orderId, facts, event, data) => {
    const { returnOf } = asCommerceFacts(facts);
    if (returnOf === null) return { data };
    return RETURN_EVENTS.has(event) ? { orderId: returnOf, data: { ...data, returnId: orderId } } : null;
  },
  related: (facts: OrderFacts) => asCommerceFacts(facts).returnOf,
};

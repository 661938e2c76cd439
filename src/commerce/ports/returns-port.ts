// Port `returns`: what steps need of returns (contract 18): an order's open returns, and the order a return's refund is sent for.
import type { OrderSummary } from '../order-summary.js';

export interface ReturnsPort {
  /** The returns of `orderId` that have not ended (queued, running, waiting), oldest first. Reads only. */
  openOf(orderId: string): Promise<string[]>;
  /** The summary of order `orderId` as webhooks carry it (a return's `order.refunded` names its parent), or null. Reads only. */
  summaryOf(orderId: string): Promise<OrderSummary | null>;
}

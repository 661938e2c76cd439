// An integration: a named signing key for signed inbound requests, and what it may do (spec "Integration").
import type { OrderChannel } from '../../domain/order-input-schema.js';

/** Scope `[*]`: any event name or any flow id. */
export const ANY = '*';

/** What the API shows of an integration (never a secret). */
export interface Integration {
  id: string;
  name: string;
  /** Event names it may deliver, or `['*']`; default none. */
  events: string[];
  /** May it start orders on POST /api/v1/webhooks/orders (default false). */
  startOrders: boolean;
  /** Flow ids it may name in an inbound order, or `['*']`; default none. */
  flows: string[];
  /** The one channel it is bound to; null = any. */
  channel: OrderChannel | null;
  createdAt: number;
  createdBy: string;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Until when the secret replaced by the last rotation still verifies; null without an overlap. */
  previousExpiresAt: number | null;
}

/** May the integration deliver `event`? */
export function allowsEvent(integration: Integration, event: string): boolean {
  return integration.events.includes(ANY) || integration.events.includes(event);
}

/** May the integration name `flowId` in an inbound order? */
export function allowsFlow(integration: Integration, flowId: string): boolean {
  return integration.flows.includes(ANY) || integration.flows.includes(flowId);
}

/** Can the integration see (and act on) an order on `channel`? Unbound integrations see every channel. */
export function seesChannel(integration: Integration, channel: string): boolean {
  return integration.channel === null || integration.channel === channel;
}

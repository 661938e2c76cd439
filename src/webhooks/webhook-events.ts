// The outbound event names (spec "Outbound events", contract 16's order.held), the notification event, and the subscription `events` rule.
import { z } from 'zod';

export const OUTBOUND_EVENTS = [
  'order.paid',
  'order.invoiced',
  'order.shipped',
  'order.ready_for_pickup',
  'order.delivered',
  'order.refunded',
  'order.payout_scheduled',
  'order.completed',
  'order.declined',
  'order.cancelled',
  'order.failed',
  // Contract 16: a step held after a failure; data `{ order, node: { id, type, error } }`, a new delivery for each hold.
  'order.held',
] as const;
export type OutboundEvent = (typeof OUTBOUND_EVENTS)[number];

/**
 * Sent by the notifications feature's webhook channel (docs/notifications.md), only to subscriptions that
 * name it: `*` keeps meaning the order events above, so no existing subscriber starts receiving messages
 * with people's addresses in them.
 */
export const NOTIFICATION_REQUESTED_EVENT = 'notification.requested';

/** Every name a subscription may list. */
export const SUBSCRIBABLE_EVENTS = [...OUTBOUND_EVENTS, NOTIFICATION_REQUESTED_EVENT] as const;

const ORDER_EVENTS = new Set<string>(OUTBOUND_EVENTS);
const KNOWN = new Set<string>(SUBSCRIBABLE_EVENTS);

/** `["*"]` (every event, the default) or a list of known event names; an unknown name is a 400 issue. */
export const subscriptionEventsSchema = z
  .array(
    z.string().refine((e) => e === '*' || KNOWN.has(e), {
      message: `must be one of ${SUBSCRIBABLE_EVENTS.join(', ')} or *`,
    }),
  )
  .min(1)
  .max(SUBSCRIBABLE_EVENTS.length)
  .refine((list) => !list.includes('*') || list.length === 1, { message: '"*" stands alone' })
  .refine((list) => new Set(list).size === list.length, { message: 'lists an event twice' });

/** True when a subscription to `events` receives `event`. `*` is every order event; `notification.requested` must be named. */
export function subscribedTo(events: readonly string[], event: string): boolean {
  return (events.includes('*') && ORDER_EVENTS.has(event)) || (KNOWN.has(event) && events.includes(event));
}

// The outbound event names (spec "Outbound events") and the subscription `events` rule.
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
] as const;
export type OutboundEvent = (typeof OUTBOUND_EVENTS)[number];

const KNOWN = new Set<string>(OUTBOUND_EVENTS);

/** `["*"]` (every event, the default) or a list of known event names; an unknown name is a 400 issue. */
export const subscriptionEventsSchema = z
  .array(
    z.string().refine((e) => e === '*' || KNOWN.has(e), {
      message: `must be one of ${OUTBOUND_EVENTS.join(', ')} or *`,
    }),
  )
  .min(1)
  .max(OUTBOUND_EVENTS.length)
  .refine((list) => !list.includes('*') || list.length === 1, { message: '"*" stands alone' })
  .refine((list) => new Set(list).size === list.length, { message: 'lists an event twice' });

/** True when a subscription to `events` receives `event`. */
export function subscribedTo(events: readonly string[], event: string): boolean {
  return events.includes('*') || events.includes(event);
}

// Webhook delivery attempts as durable timers: the shared attempt schedule (src/engine/outbox/attempt-schedule.ts) under their own kind.
import type { AttemptTimerKind } from '../engine/outbox/attempt-schedule.js';

/** Timer kind of delivery attempts in the durable scheduler. */
export const DELIVERY_TIMER_KIND = 'webhook.delivery';

/** Delivery attempt timers: `{ deliveryId, attempt }`. */
export const DELIVERY_TIMER: AttemptTimerKind = { kind: DELIVERY_TIMER_KIND, idKey: 'deliveryId' };

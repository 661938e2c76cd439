// Notification attempts as durable timers: the shared attempt schedule (first at once, retries 10/20/40/80/160 s) under their own kind.
import type { AttemptTimerKind } from '../engine/outbox/attempt-schedule.js';

/** Timer kind of notification attempts in the durable scheduler. */
export const NOTIFICATION_TIMER_KIND = 'notification.delivery';

/** Notification attempt timers: `{ notificationId, attempt }`. */
export const NOTIFICATION_TIMER: AttemptTimerKind = { kind: NOTIFICATION_TIMER_KIND, idKey: 'notificationId' };

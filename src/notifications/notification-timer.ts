// Notification attempts as durable timers: the webhook schedule (first at once, retries 10/20/40/80/160 s) under their own kind.
export { attemptTimerId, GUARD_MARGIN_MS, MAX_ATTEMPTS, retryDelay } from '../webhooks/delivery-schedule.js';

/** Timer kind of notification attempts in the durable scheduler. */
export const NOTIFICATION_TIMER_KIND = 'notification.delivery';

/** The payload of a notification attempt timer. */
export interface NotificationTimerPayload {
  notificationId: string;
  attempt: number;
}

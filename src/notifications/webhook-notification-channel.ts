// Webhook adapter of the notification channel port: a signed `notification.requested` event to every subscription
// that names it, for merchants who send their own messages. Same body shape, signature and SSRF guard as order events.
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import { readOrder } from '../orders/order-row.js';
import { orderSummary } from '../commerce/order-summary.js';
import { subscriptionForSigning } from '../webhooks/subscription-store.js';
import { signatureHeader } from '../webhooks/signature.js';
import { postOutbound, type OutboundPostOptions } from '../webhooks/outbound-post.js';
import { NOTIFICATION_REQUESTED_EVENT } from '../webhooks/webhook-events.js';
import type { NotificationChannel, NotificationMessage, SendResult } from './notification-channel.js';
import { notificationLinks } from './notification-links.js';

export interface WebhookNotificationChannelOptions {
  db: Db;
  clock: Clock;
  sealKey: Buffer;
  baseUrl(): string;
  /** OUTBOUND_TIMEOUT_MS and OUTBOUND_ALLOW_LOOPBACK, as for order events. */
  timeoutMs: number;
  allowLoopback: boolean;
  userAgent: string;
  resolve?: OutboundPostOptions['resolve'];
}

/** Subscriptions that list `notification.requested` by name (`*` does not include it). */
const SUBSCRIBED_SQL = `SELECT id FROM webhook_subscriptions WHERE events ? '${NOTIFICATION_REQUESTED_EVENT}' ORDER BY created_at, id`;

/**
 * `ntd_` + 32 hex of SHA-256(notification id, subscription id): the body's `id` and the `x-service-delivery`
 * header, the same on every attempt, so a receiver dedupes a resend.
 */
export function notificationDeliveryId(notificationId: string, subscriptionId: string): string {
  return `ntd_${createHash('sha256').update(`${notificationId}|${subscriptionId}`).digest('hex').slice(0, 32)}`;
}

export class WebhookNotificationChannel implements NotificationChannel {
  readonly name = 'webhook' as const;

  constructor(private readonly options: WebhookNotificationChannelOptions) {}

  /** True when some subscription names `notification.requested` (the channel is configured). */
  async configured(q: Queryable): Promise<boolean> {
    return (await q.query(SUBSCRIBED_SQL)).rows.length > 0;
  }

  /** The same answer for every message of the batch: one read of the subscriptions. */
  async refusals(q: Queryable, messages: readonly NotificationMessage[]): Promise<(string | null)[]> {
    const refusal = (await this.configured(q)) ? null : `No webhook subscription lists ${NOTIFICATION_REQUESTED_EVENT}`;
    return messages.map(() => refusal);
  }

  /**
   * POSTs the event to each subscription naming it, at once; ok when every one answered 2xx.
   * A retry posts to all of them again with the same ids: duplicates are possible, as for order events.
   */
  async send(message: NotificationMessage): Promise<SendResult> {
    const { db, clock } = this.options;
    const { rows } = await db.query<{ id: string }>(SUBSCRIBED_SQL);
    if (rows.length === 0) return { ok: false, error: `No webhook subscription lists ${NOTIFICATION_REQUESTED_EVENT}` };
    const order = await readOrder(db, message.orderId);
    const links = notificationLinks(this.options.baseUrl(), message.orderId);
    const attempts = rows.map(async ({ id: subscriptionId }): Promise<string | null> => {
      const sub = await subscriptionForSigning(db, this.options.sealKey, subscriptionId);
      if (!sub) return null;
      const id = notificationDeliveryId(message.id, sub.id);
      const body = JSON.stringify({
        id,
        event: NOTIFICATION_REQUESTED_EVENT,
        occurredAt: message.createdAt,
        orderId: message.orderId,
        data: {
          order: order ? orderSummary(order.id, order) : null,
          notification: {
            id: message.id,
            nodeId: message.nodeId,
            audience: message.audience,
            recipient: message.recipient,
            email: message.address,
            subject: message.subject,
            text: message.body,
            orderPage: links.orderPage,
            ...(message.audience === 'seller' ? { answerRoute: links.answerRoute } : {}),
          },
        },
      });
      const headers = {
        'content-type': 'application/json',
        'user-agent': this.options.userAgent,
        'x-service-signature': signatureHeader(sub.secret, clock.now(), body),
        'x-service-event': NOTIFICATION_REQUESTED_EVENT,
        'x-service-delivery': id,
      };
      const result = await postOutbound(sub.url, headers, body, {
        timeoutMs: this.options.timeoutMs,
        allowLoopback: this.options.allowLoopback,
        resolve: this.options.resolve,
      }).catch((err: Error) => ({ ok: false, status: null, error: err.message }));
      return result.ok ? null : `${sub.id}: ${result.error ?? 'failed'}`;
    });
    // In parallel: one attempt lasts at most one outbound timeout, which the guard timer allows for.
    const errors = (await Promise.all(attempts)).filter((e): e is string => e !== null);
    return errors.length ? { ok: false, error: errors.join('; ').slice(0, 1000) } : { ok: true, error: null };
  }
}

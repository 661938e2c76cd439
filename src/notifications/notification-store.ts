// Notification rows: the message and its delivery log (channel, status, attempts, last error), locked for an attempt or listed per order.
import type { Queryable } from '../db/db.js';
import type { NotificationAudience, NotificationMessage } from './notification-channel.js';

/** queued: no channel took it; pending: attempts under way; sent; failed: the retries ran out. */
export type NotificationStatus = 'queued' | 'pending' | 'sent' | 'failed';

/** A notification as the API shows it (the delivery log of one message). */
export interface NotificationView {
  id: string;
  orderId: string;
  nodeId: string;
  audience: NotificationAudience;
  recipient: string;
  address: string | null;
  channel: 'email' | 'webhook' | null;
  subject: string;
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  lastAttemptAt: number | null;
  sentAt: number | null;
}

/** What an attempt reads (locked). */
export interface NotificationRow extends NotificationMessage {
  channel: 'email' | 'webhook' | null;
  status: NotificationStatus;
  attempts: number;
}

/** Spec "Limits" style bound: the notifications listed for one order. */
export const NOTIFICATIONS_LISTED = 200;

/** The `notifications` columns an attempt reads; bigint columns arrive as strings, the CHECK constraints bound the text ones. */
export interface NotificationDbRow {
  id: string;
  order_id: string;
  node_id: string;
  audience: NotificationAudience;
  recipient: string;
  address: string | null;
  subject: string;
  body: string;
  created_at: string;
  channel: 'email' | 'webhook' | null;
  status: NotificationStatus;
  attempts: number;
}

/** The columns of the API's delivery log (`listOrderNotifications`). */
interface NotificationViewDbRow extends Omit<NotificationDbRow, 'body'> {
  last_error: string | null;
  last_attempt_at: string | null;
  sent_at: string | null;
}

export function toNotificationRow(r: NotificationDbRow): NotificationRow {
  return {
    id: r.id,
    orderId: r.order_id,
    nodeId: r.node_id,
    audience: r.audience,
    recipient: r.recipient,
    address: r.address,
    subject: r.subject,
    body: r.body,
    createdAt: Number(r.created_at),
    channel: r.channel,
    status: r.status,
    attempts: r.attempts,
  };
}

/** Locks one notification for the rest of the transaction; null when absent. */
export async function lockNotification(q: Queryable, id: string): Promise<NotificationRow | null> {
  const { rows } = await q.query<NotificationDbRow>('SELECT * FROM notifications WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ? toNotificationRow(rows[0]) : null;
}

/** Up to `limit` notifications not yet handed to a channel, locked (skipping rows another node holds), oldest first. */
export async function lockUndispatched(q: Queryable, limit: number): Promise<NotificationRow[]> {
  const { rows } = await q.query<NotificationDbRow>(
    'SELECT * FROM notifications WHERE dispatched_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED',
    [limit],
  );
  return rows.map(toNotificationRow);
}

/** The order's notifications, oldest first (the order they were written in). */
export async function listOrderNotifications(q: Queryable, orderId: string): Promise<NotificationView[]> {
  const { rows } = await q.query<NotificationViewDbRow>(
    `SELECT id, order_id, node_id, audience, recipient, address, channel, subject, status, attempts, last_error, created_at,
            last_attempt_at, sent_at
       FROM notifications WHERE order_id = $1 ORDER BY created_at, id LIMIT $2`,
    [orderId, NOTIFICATIONS_LISTED],
  );
  const ms = (v: string | null) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    nodeId: r.node_id,
    audience: r.audience,
    recipient: r.recipient,
    address: r.address,
    channel: r.channel,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    lastAttemptAt: ms(r.last_attempt_at),
    sentAt: ms(r.sent_at),
  }));
}

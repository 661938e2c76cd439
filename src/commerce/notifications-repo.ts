// Notifications the commerce steps queue: one row per recipient, sent after the commit by the notifications feature (its outbox).
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';

/** A message to queue (`queueNotifications`): one subject and body for every recipient. */
export interface NewNotifications {
  orderId: string;
  nodeId: string;
  /** Who it is for: `seller`, `customer`, `operations`. */
  audience: string;
  subject: string;
  body: string;
  /** A display name (seller id, email, `operations`) and the email address, when known. */
  recipients: readonly { recipient: string; address: string | null }[];
}

/** Queues the message for each recipient in one statement (none without recipients); returns the new ids in recipient order. */
export async function queueNotifications(q: Queryable, n: NewNotifications, now: number): Promise<string[]> {
  const rows = n.recipients.map((t) => ({ id: newCommerceId('ntf'), recipient: t.recipient, address: t.address }));
  if (rows.length > 0)
    await q.query(
      `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, created_at, updated_at)
         SELECT t.id, $2, $3, $4, t.recipient, t.address, $5, $6, 'queued', $7, $7
           FROM jsonb_to_recordset($1::jsonb) AS t(id text, recipient text, address text)`,
      [JSON.stringify(rows), n.orderId, n.nodeId, n.audience, n.subject, n.body, now],
    );
  return rows.map((r) => r.id);
}

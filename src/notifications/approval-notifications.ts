// Approvals that notify their assignee: open approval waits whose assignee is an email address, written once as
// `approver` notifications (queued, undispatched) inside the dispatcher's transaction.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.js';

/** `ntf_` + 20 hex of MD5(order, generation, node, run): one notification per opened approval, whoever writes it first. */
export function approvalNotificationId(w: { orderId: string; generation: number; nodeId: string; run: number }): string {
  return `ntf_${createHash('md5').update(`${w.orderId}|${w.generation}|${w.nodeId}|${w.run}`).digest('hex').slice(0, 20)}`;
}

/** The same id in SQL (for the NOT EXISTS of the scan). */
const ID_SQL = "'ntf_' || left(md5(w.order_id || '|' || w.generation || '|' || w.node_id || '|' || w.run), 20)";

/** Email-shaped assignee, as `isEmailAddress` (email-address.ts) decides it. */
const EMAIL_SQL = "w.assignee ~ '^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]+$' AND length(w.assignee) <= 320";

/**
 * Writes the notification of every open approval with an email assignee that has none yet; returns how many.
 * Only open ones: an approval decided before the dispatcher saw it has nothing left to ask.
 */
export async function writeApprovalNotifications(q: Queryable, now: number): Promise<number> {
  const { rows } = await q.query<{ order_id: string; generation: number; node_id: string; run: number; title: string | null; assignee: string; deadline: string | null; since: string }>(
    `SELECT w.order_id, w.generation, w.node_id, w.run, w.title, w.assignee, w.deadline, w.since FROM order_waits w
      WHERE w.kind = 'approval' AND w.status = 'open' AND ${EMAIL_SQL}
        AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.id = ${ID_SQL})
      ORDER BY w.since LIMIT 200`,
  );
  for (const w of rows) {
    const title = w.title ?? `Approve order ${w.order_id}`;
    const deadline = w.deadline === null ? '' : ` Decide before ${new Date(Number(w.deadline)).toISOString()}; after that it escalates.`;
    await q.query(
      `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, created_at, updated_at)
       VALUES ($1, $2, $3, 'approver', $4, $4, $5, $6, 'queued', $7, $8) ON CONFLICT (id) DO NOTHING`,
      [
        approvalNotificationId({ orderId: w.order_id, generation: w.generation, nodeId: w.node_id, run: w.run }),
        w.order_id,
        w.node_id,
        w.assignee,
        `Approval waiting: ${title}`.slice(0, 200),
        `${title}.${deadline}`,
        Number(w.since),
        now,
      ],
    );
  }
  return rows.length;
}

// Approvals that notify their assignee: open approval waits whose assignee is an email address, written once as
// `approver` notifications (queued, undispatched) inside the dispatcher's transaction.
import type { Queryable } from '../db/db.js';

/** `ntf_` + 20 hex of MD5(order, generation, node, run): one notification per opened approval, whoever writes it first. */
const ID_SQL = "'ntf_' || left(md5(w.order_id || '|' || w.generation || '|' || w.node_id || '|' || w.run), 20)";

/** Email-shaped assignee, as `isEmailAddress` (email-address.ts) decides it. */
const EMAIL_SQL = "w.assignee ~ '^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]+$' AND length(w.assignee) <= 320";

/** A milliseconds timestamp in SQL as JavaScript's toISOString writes it (UTC, milliseconds, `Z`). */
const ISO_SQL = (ms: string) => `to_char((timestamptz 'epoch' + ${ms} * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Writes the notification of every open approval with an email assignee that has none yet, in one
 * statement (the dispatcher runs it every batch: no read first); returns how many.
 * Only open ones: an approval decided before the dispatcher saw it has nothing left to ask.
 * Subject `Approval waiting: <title>` (200 characters at most), body `<title>.` and, with a
 * deadline, ` Decide before <ISO time>; after that it escalates.`; the title defaults to
 * `Approve order <id>`.
 */
export async function writeApprovalNotifications(q: Queryable, now: number): Promise<number> {
  const res = await q.query(
    `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, created_at, updated_at)
     SELECT ${ID_SQL}, w.order_id, w.node_id, 'approver', w.assignee, w.assignee,
            left('Approval waiting: ' || coalesce(w.title, 'Approve order ' || w.order_id), 200),
            coalesce(w.title, 'Approve order ' || w.order_id) || '.' ||
              CASE WHEN w.deadline IS NULL THEN '' ELSE ' Decide before ' || ${ISO_SQL('w.deadline')} || '; after that it escalates.' END,
            'queued', w.since, $1
       FROM (SELECT * FROM order_waits w
              WHERE w.kind = 'approval' AND w.status = 'open' AND ${EMAIL_SQL}
                AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.id = ${ID_SQL})
              ORDER BY w.since LIMIT 200) w
     ON CONFLICT (id) DO NOTHING`,
    [now],
  );
  return res.rowCount ?? 0;
}

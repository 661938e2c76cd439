// How a POST attempt ends in a delivery table of the webhook shape (status, response_status, last_error, delivered_at): webhooks and A2A push.
import type { Queryable } from '../db/db.js';
import { UNRECORDED_ERROR, type RecordedAttempt } from '../engine/outbox/attempt-worker.js';

/** The tables with that shape (named here, never from input: they go into the statement text). */
export type PostDeliveryTable = 'webhook_deliveries' | 'a2a_push_deliveries';

/** Delivered on a 2xx (the error cleared), failed after the last attempt, else the status and error kept for the retry. */
export async function recordPostAttempt(tx: Queryable, table: PostDeliveryTable, { row, result, outcome, error, now }: RecordedAttempt<{ id: string }>): Promise<void> {
  const status = result.status ?? null;
  if (outcome === 'delivered')
    await tx.query(`UPDATE ${table} SET status = 'delivered', response_status = $2, last_error = NULL, delivered_at = $3, updated_at = $3 WHERE id = $1`, [
      row.id,
      status,
      now,
    ]);
  else if (outcome === 'failed')
    await tx.query(`UPDATE ${table} SET status = 'failed', response_status = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [row.id, status, error, now]);
  else await tx.query(`UPDATE ${table} SET response_status = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [row.id, status, error, now]);
}

/** The guard after the last attempt found no result recorded (a crash mid-POST): failed, keeping an earlier error. */
export async function failUnrecordedPost(tx: Queryable, table: PostDeliveryTable, id: string, now: number): Promise<void> {
  await tx.query(`UPDATE ${table} SET status = 'failed', last_error = coalesce(last_error, $3), updated_at = $2 WHERE id = $1`, [id, now, UNRECORDED_ERROR]);
}

// How nodes share a batch's orders: the paced claim (rate cap), the lease, the outcome, and what an expired lease means.
import type { Db, Queryable } from '../db/db.js';
import type { BatchOutcome } from './batch-view.js';

/** One order a node has claimed: only the holder of `claim` may record its outcome. */
export interface ClaimedItem {
  batchId: string;
  seq: number;
  orderId: string;
  claim: string;
}

/**
 * What a claim attempt found: an order to process; the wait before the batch's pace allows the next
 * (ms); or nothing to start (the batch is not running, or every order is taken).
 */
export type ClaimAttempt = { item: ClaimedItem } | { waitMs: number } | { idle: true };

/** The batch's pace: 1/rate seconds rounded up to the microsecond, so `rate` starts never fit in under a second. */
const PACE = `(ceil(1000000.0 / rate_per_second) * interval '1 microsecond')`;

/**
 * Begins the next order of a running batch if its pace allows, in one transaction: the batch row's
 * `last_start_at` moves to PostgreSQL's clock only when at least 1/rate s has passed since the last
 * start (by any node: the row lock serialises them), and the first pending order (SKIP LOCKED) becomes
 * `processing` under a random claim, a lease and the order row's version (xmin), stamped with that same
 * start time. With no order left the transaction rolls back and the pace is not spent.
 */
export async function claimNext(db: Db, batchId: string, claim: string, worker: string, leaseMs: number): Promise<ClaimAttempt> {
  const taken = await db.tx(async (tx) => {
    const paced = await tx.query(
      `UPDATE batches SET last_start_at = clock_timestamp()
       WHERE id = $1 AND state = 'running' AND (last_start_at IS NULL OR clock_timestamp() >= last_start_at + ${PACE})
       RETURNING id`,
      [batchId],
    );
    if (paced.rowCount === 0) return 'paced' as const;
    const { rows } = await tx.query<{ seq: number; order_id: string }>(
      `WITH next AS (
         SELECT seq FROM batch_items WHERE batch_id = $1 AND state = 'pending' ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
       UPDATE batch_items i SET state = 'processing', claim = $2, worker = $4,
         started_at = (SELECT last_start_at FROM batches WHERE id = $1),
         lease_until = clock_timestamp() + $3 * interval '1 millisecond',
         order_mark = (SELECT o.xmin::text FROM orders o WHERE o.id = i.order_id)
       FROM next WHERE i.batch_id = $1 AND i.seq = next.seq
       RETURNING i.seq, i.order_id`,
      [batchId, claim, leaseMs, worker],
    );
    // Nothing pending: undo the pace (throwing rolls the transaction back).
    if (!rows[0]) throw new NothingPending();
    return { batchId, seq: rows[0].seq, orderId: rows[0].order_id, claim };
  }).catch((err: unknown) => {
    if (err instanceof NothingPending) return 'empty' as const;
    throw err;
  });
  if (taken === 'empty') return { idle: true };
  if (taken !== 'paced') return { item: taken };
  const { rows } = await db.query<{ state: string; wait_ms: number | null }>(
    `SELECT state, ceil(extract(epoch FROM (last_start_at + ${PACE} - clock_timestamp())) * 1000)::float8 AS wait_ms FROM batches WHERE id = $1`,
    [batchId],
  );
  const row = rows[0];
  if (!row || row.state !== 'running') return { idle: true };
  return { waitMs: Math.max(1, row.wait_ms ?? 1) };
}

class NothingPending extends Error {}

/** Extends the lease of an order still being processed by its claim; false when the claim was lost. */
export async function renewLease(q: Queryable, item: ClaimedItem, leaseMs: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE batch_items SET lease_until = clock_timestamp() + $4 * interval '1 millisecond'
     WHERE batch_id = $1 AND seq = $2 AND claim = $3 AND state = 'processing'`,
    [item.batchId, item.seq, item.claim, leaseMs],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Records how the order ended, once, by the claim's holder, with the batch's counts in the same
 * statement (the item row is locked first, then the batch row, as everywhere else): the batch
 * completes when its last order is recorded while it is running or paused. False when the claim was lost.
 */
export async function recordOutcome(q: Queryable, item: ClaimedItem, outcome: BatchOutcome, error: string | null, now: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `WITH item AS (
       UPDATE batch_items SET state = $4, error = $5, finished_at = clock_timestamp(), lease_until = NULL
       WHERE batch_id = $1 AND seq = $2 AND claim = $3 AND state = 'processing' RETURNING state)
     UPDATE batches b SET
       done = b.done + (item.state = 'done')::int,
       failed = b.failed + (item.state = 'failed')::int,
       skipped = b.skipped + (item.state = 'skipped')::int,
       state = CASE WHEN b.state IN ('running', 'paused') AND b.done + b.failed + b.skipped + 1 >= b.total THEN 'completed' ELSE b.state END,
       finished_at = CASE WHEN b.state IN ('running', 'paused') AND b.done + b.failed + b.skipped + 1 >= b.total THEN $6::bigint ELSE b.finished_at END
     FROM item WHERE b.id = $1`,
    [item.batchId, item.seq, item.claim, outcome, error, now],
  );
  return (rowCount ?? 0) > 0;
}

/** An order whose node stopped holding its lease, as found by another node (or the same one, later). */
export interface ExpiredItem extends ClaimedItem {
  operation: string;
  /** The order row's version when it was claimed, and now (null: no such order). */
  markAtClaim: string | null;
  markNow: string | null;
}

/**
 * Takes one order whose lease ran out (its node died, lost PostgreSQL, or was stopped mid-order) and lets
 * `decide` say, inside the same transaction with the item locked, whether it runs again (`retry`: back to
 * pending) or ends with an outcome. Answers whether one was found.
 */
export async function takeExpiredLease(
  db: Db,
  decide: (item: ExpiredItem) => { retry: true } | { outcome: BatchOutcome; error: string },
  now: number,
): Promise<boolean> {
  return db.tx(async (tx) => {
    const { rows } = await tx.query<{ batch_id: string; seq: number; order_id: string; claim: string; operation: string; order_mark: string | null; mark_now: string | null }>(
      `SELECT i.batch_id, i.seq, i.order_id, i.claim, b.operation, i.order_mark,
              (SELECT o.xmin::text FROM orders o WHERE o.id = i.order_id) AS mark_now
       FROM batch_items i JOIN batches b ON b.id = i.batch_id
       WHERE i.state = 'processing' AND i.lease_until < clock_timestamp()
       ORDER BY i.lease_until LIMIT 1 FOR UPDATE OF i SKIP LOCKED`,
    );
    const r = rows[0];
    if (!r) return false;
    const item: ExpiredItem = { batchId: r.batch_id, seq: r.seq, orderId: r.order_id, claim: r.claim, operation: r.operation, markAtClaim: r.order_mark, markNow: r.mark_now };
    const verdict = decide(item);
    if ('retry' in verdict)
      await tx.query(
        `UPDATE batch_items SET state = 'pending', claim = NULL, lease_until = NULL, started_at = NULL, order_mark = NULL
         WHERE batch_id = $1 AND seq = $2 AND claim = $3`,
        [item.batchId, item.seq, item.claim],
      );
    else await recordOutcome(tx, item, verdict.outcome, verdict.error, now);
    return true;
  });
}

/** Running batches with an order still pending, oldest first: what a worker looks at. */
export async function runnableBatches(q: Queryable, limit = 50): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT b.id FROM batches b WHERE b.state = 'running'
       AND EXISTS (SELECT 1 FROM batch_items i WHERE i.batch_id = b.id AND i.state = 'pending')
     ORDER BY b.created_at, b.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.id);
}

// The batches table: record a batch with its orders, read batches and their latest results, pause, resume and cancel.
import type { Db, Queryable } from '../db/db.js';
import { conflict, notFound } from '../domain/errors.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import type { SearchMode } from '../orders/order-search.js';
import type { CreatorSnapshot } from './batch-creator.js';
import { fillSelection, type BatchSelection } from './batch-selection.js';
import { BATCH_COLUMNS, toBatchView, type BatchDbRow, type BatchOutcome, type BatchResult, type BatchState, type BatchView } from './batch-view.js';

/** Contract 16: GET /api/v1/batches/:id answers the latest 1,000 results; the list is cut at BATCHES_LISTED. */
export const RESULTS_LISTED = 1_000;
export const BATCHES_LISTED = 500;

export interface NewBatch {
  operation: string;
  input: Record<string, unknown>;
  selection: BatchSelection;
  ratePerSecond: number;
  creator: CreatorSnapshot;
  now: number;
}

/** What a worker needs of a batch to process one of its orders. */
export interface BatchWork {
  id: string;
  operation: string;
  input: Record<string, unknown>;
  creator: CreatorSnapshot;
}

/**
 * Records a running batch and its orders in one transaction (its orders are fixed now); a selection of
 * no order makes a batch already completed. A filter past its cap writes nothing (the 400 rolls back).
 */
export async function createBatch(db: Db, mode: SearchMode, b: NewBatch): Promise<BatchView> {
  const id = newCommerceId('bat');
  return db.tx(async (tx) => {
    const selection = 'orderIds' in b.selection ? { orderIds: b.selection.orderIds.length } : { filter: b.selection.filter };
    await tx.query(
      `INSERT INTO batches (id, operation, input, selection, state, total, rate_per_second, creator, created_by, created_at)
       VALUES ($1, $2, $3, $4, 'running', 0, $5, $6, $7, $8)`,
      [id, b.operation, JSON.stringify(b.input), JSON.stringify(selection), b.ratePerSecond, JSON.stringify(b.creator), b.creator.actor, b.now],
    );
    const total = await fillSelection(tx, mode, id, b.selection);
    const { rows } = await tx.query<BatchDbRow>(
      `UPDATE batches SET total = $2,
         state = CASE WHEN $2 = 0 THEN 'completed' ELSE state END, finished_at = CASE WHEN $2 = 0 THEN $3::bigint END
       WHERE id = $1 RETURNING ${BATCH_COLUMNS}`,
      [id, total, b.now],
    );
    return toBatchView(rows[0]);
  });
}

export async function listBatches(q: Queryable): Promise<BatchView[]> {
  const { rows } = await q.query<BatchDbRow>(`SELECT ${BATCH_COLUMNS} FROM batches ORDER BY created_at DESC, id DESC LIMIT $1`, [BATCHES_LISTED]);
  return rows.map(toBatchView);
}

export async function readBatch(q: Queryable, id: string): Promise<BatchView> {
  const { rows } = await q.query<BatchDbRow>(`SELECT ${BATCH_COLUMNS} FROM batches WHERE id = $1`, [id]);
  if (!rows[0]) throw notFound('Batch');
  return toBatchView(rows[0]);
}

/** The latest results, most recently finished first. */
export async function batchResults(q: Queryable, id: string): Promise<BatchResult[]> {
  const { rows } = await q.query<{ order_id: string; state: BatchOutcome; error: string | null }>(
    `SELECT order_id, state, error FROM batch_items WHERE batch_id = $1 AND finished_at IS NOT NULL
     ORDER BY finished_at DESC, seq DESC LIMIT $2`,
    [id, RESULTS_LISTED],
  );
  return rows.map((r) => ({ orderId: r.order_id, outcome: r.state, ...(r.error !== null ? { error: r.error } : {}) }));
}

/** The batch as a worker runs it. */
export async function readBatchWork(q: Queryable, id: string): Promise<BatchWork | null> {
  const { rows } = await q.query<BatchWork>('SELECT id, operation, input, creator FROM batches WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** The operation a batch runs (to check the caller's role before a change of state); 404 for an unknown batch. */
export async function batchOperation(q: Queryable, id: string): Promise<string> {
  const { rows } = await q.query<{ operation: string }>('SELECT operation FROM batches WHERE id = $1', [id]);
  if (!rows[0]) throw notFound('Batch');
  return rows[0].operation;
}

/** A change of state a person can ask for, with the states it may start from. */
export type BatchTransition = 'pause' | 'resume' | 'cancel';
const FROM: Record<BatchTransition, { from: readonly BatchState[]; to: BatchState; refusal: string }> = {
  pause: { from: ['running'], to: 'paused', refusal: 'Only a running batch can be paused' },
  resume: { from: ['paused'], to: 'running', refusal: 'Only a paused batch can be resumed' },
  cancel: { from: ['running', 'paused'], to: 'cancelled', refusal: 'Only a running or paused batch can be cancelled' },
};

/**
 * Moves a batch to its new state, or 409 naming the state it is in (404 for an unknown batch). Orders
 * being processed when it pauses or is cancelled finish and are recorded; no other order starts.
 */
export async function transitionBatch(q: Queryable, id: string, transition: BatchTransition, now: number): Promise<BatchView> {
  const t = FROM[transition];
  const { rows } = await q.query<BatchDbRow>(
    `UPDATE batches SET state = $3, finished_at = CASE WHEN $3 = 'cancelled' THEN $4::bigint ELSE finished_at END
     WHERE id = $1 AND state = ANY($2::text[]) RETURNING ${BATCH_COLUMNS}`,
    [id, t.from, t.to, now],
  );
  if (rows[0]) return toBatchView(rows[0]);
  const current = await readBatch(q, id);
  throw conflict(`${t.refusal} (this one is ${current.state})`);
}

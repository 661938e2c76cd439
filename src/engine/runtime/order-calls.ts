// External calls of a run (issue 20): ids, idempotency keys and the SQL that records, leases and answers them.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/db.js';
import type { ExternalAnswer, ExternalRequest } from '../node-type.js';

/** The timer kind that wakes the executor for a recorded call. */
export const CALL_TIMER_KIND = 'call.perform';

/** How long past its timeout a leased call stays with the process that took it before another may repeat it. */
export const CALL_LEASE_MARGIN_MS = 5_000;

export type CallPurpose = 'step' | 'undo';

/** A call recorded by a slice (written with the slice, made after commit). */
export interface NewCall {
  id: string;
  orderId: string;
  generation: number;
  nodeId: string;
  run: number;
  purpose: CallPurpose;
  attempt: number;
  idempotencyKey: string;
  request: ExternalRequest;
}

/** A recorded call as its answer's command reads it. */
export interface CallRow extends NewCall {
  status: 'pending' | 'answered' | 'late';
}

/**
 * The Idempotency-Key of one run of a node: the same for every attempt (retries, restarts),
 * different for another order, generation, node, run or purpose (a rollback's call is not the step's).
 */
export function idempotencyKey(orderId: string, generation: number, nodeId: string, run: number, purpose: CallPurpose): string {
  const digest = createHash('sha256').update(`${orderId}\n${generation}\n${nodeId}\n${run}\n${purpose}`).digest('hex').slice(0, 32);
  return `oo-${digest}`;
}

export function callId(orderId: string, generation: number, nodeId: string, run: number, purpose: CallPurpose, attempt: number): string {
  return `${orderId}:${generation}:${nodeId}:${run}:${purpose}:${attempt}`;
}

export function callTimerId(id: string): string {
  return `call:${id}`;
}

/** The call id of a `call.perform` timer id. */
export function callIdOfTimer(timerId: string): string {
  return timerId.slice('call:'.length);
}

/** The slice-write part that inserts the calls (`$order` and the JSON are its parameters). */
export function callInsertSql(order: string, json: string, now: string): string {
  return `INSERT INTO order_calls (id, order_id, generation, node_id, run, purpose, attempt, idempotency_key, request, created_at)
     SELECT c.id, ${order}, c.generation, c.node_id, c.run, c.purpose, c.attempt, c.idempotency_key, c.request, ${now}
       FROM jsonb_to_recordset(${json}) AS c(id text, generation int, node_id text, run int, purpose text, attempt int, idempotency_key text, request jsonb)
     ON CONFLICT (id) DO NOTHING`;
}

export function callsJson(calls: readonly NewCall[]): unknown[] {
  return calls.map((c) => ({
    id: c.id,
    generation: c.generation,
    node_id: c.nodeId,
    run: c.run,
    purpose: c.purpose,
    attempt: c.attempt,
    idempotency_key: c.idempotencyKey,
    request: c.request,
  }));
}

/** An `order_calls` row as the call's commands read it. */
interface CallDbRow {
  id: string;
  order_id: string;
  generation: number;
  node_id: string;
  run: number;
  purpose: CallPurpose;
  attempt: number;
  idempotency_key: string;
  request: ExternalRequest;
  status: CallRow['status'];
}

function toCall(r: CallDbRow): CallRow {
  return {
    id: r.id,
    orderId: r.order_id,
    generation: r.generation,
    nodeId: r.node_id,
    run: r.run,
    purpose: r.purpose,
    attempt: r.attempt,
    idempotencyKey: r.idempotency_key,
    request: r.request,
    status: r.status,
  };
}

/**
 * Takes the call's timer for this process: moves its due time past the request's timeout (the
 * lease) and returns the call, only when the timer is pending and due and the call still waits
 * for an answer. Null when another process holds it, it was answered, or the run cancelled it.
 */
export async function leaseCall(q: Queryable, id: string, now: number, holder: string): Promise<CallRow | null> {
  const { rows } = await q.query<CallDbRow>(
    `WITH c AS (SELECT * FROM order_calls WHERE id = $1 AND status = 'pending'),
          t AS (UPDATE timers SET due_at = $2 + coalesce((SELECT (c.request->>'timeoutMs')::bigint FROM c), 0) + $3, claimed_by = $4, claimed_at = $2
                 WHERE id = $5 AND fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $2 AND EXISTS (SELECT 1 FROM c)
                 RETURNING id)
     SELECT c.* FROM c, t`,
    [id, now, CALL_LEASE_MARGIN_MS, holder, callTimerId(id)],
  );
  return rows[0] ? toCall(rows[0]) : null;
}

/** Marks the timer of a call that no longer waits (answered, or its run ended) fired, so it stops waking anyone. */
export async function retireCallTimer(q: Queryable, id: string, now: number): Promise<void> {
  await q.query(
    `UPDATE timers SET fired_at = $2 WHERE id = $3 AND fired_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM order_calls WHERE id = $1 AND status = 'pending')`,
    [id, now, callTimerId(id)],
  );
}

/**
 * Records the answer of a pending call inside the order's transaction and retires its timer;
 * `status` says whether the run used it. Null when the call was already answered (a repeat
 * after a lost lease, a duplicate): the first answer stands.
 */
export async function recordAnswer(q: Queryable, id: string, answer: ExternalAnswer, status: 'answered' | 'late', now: number): Promise<CallRow | null> {
  const { rows } = await q.query<CallDbRow>(
    `WITH c AS (UPDATE order_calls SET status = $2, answer = $3::jsonb, answered_at = $4 WHERE id = $1 AND status = 'pending' RETURNING *),
          t AS (UPDATE timers SET fired_at = $4 WHERE id = $5 AND fired_at IS NULL AND EXISTS (SELECT 1 FROM c))
     SELECT * FROM c`,
    [id, status, JSON.stringify(answer), now, callTimerId(id)],
  );
  return rows[0] ? toCall(rows[0]) : null;
}

/** A recorded call, whatever its status (null when unknown). */
export async function readCall(q: Queryable, id: string): Promise<CallRow | null> {
  const { rows } = await q.query<CallDbRow>('SELECT * FROM order_calls WHERE id = $1', [id]);
  return rows[0] ? toCall(rows[0]) : null;
}

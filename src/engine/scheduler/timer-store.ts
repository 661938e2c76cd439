// PostgreSQL side of timers: the durable rows every index is built from, and the firing guard.
import type { Queryable } from '../../db/db.js';
import type { TimerIndexEntry } from './timer-index.js';

/** A timer to schedule. `id` is chosen by the caller so scheduling is idempotent. */
export interface NewTimer {
  id: string;
  orderId?: string | null;
  kind: string;
  nodeId?: string | null;
  run?: number | null;
  dueAt: number;
  payload?: unknown;
}

/** A `timers` row; times are epoch ms from the Clock. */
export interface TimerRow {
  id: string;
  orderId: string | null;
  kind: string;
  nodeId: string | null;
  run: number | null;
  dueAt: number;
  payload: unknown;
  firedAt: number | null;
  claimedBy: string | null;
  claimedAt: number | null;
  cancelledAt: number | null;
  createdAt: number;
}

/** Keyset cursor for paging through pending timers in (dueAt, id) order. */
export interface DueCursor {
  dueAt: number;
  id: string;
}

const COLUMNS =
  'id, order_id, kind, node_id, run, due_at, payload, fired_at, claimed_by, claimed_at, cancelled_at, created_at';

/** Postgres returns bigint as a string; times stay well inside Number's exact range. */
function ms(value: string | number | null): number | null {
  return value === null ? null : Number(value);
}

/** A `timers` row as pg returns it (bigint columns as text). */
interface TimerDbRow {
  id: string;
  order_id: string | null;
  kind: string;
  node_id: string | null;
  run: number | null;
  due_at: string;
  payload: unknown;
  fired_at: string | null;
  claimed_by: string | null;
  claimed_at: string | null;
  cancelled_at: string | null;
  created_at: string;
}

function toRow(r: TimerDbRow): TimerRow {
  return {
    id: r.id,
    orderId: r.order_id,
    kind: r.kind,
    nodeId: r.node_id,
    run: r.run,
    dueAt: Number(r.due_at),
    payload: r.payload,
    firedAt: ms(r.fired_at),
    claimedBy: r.claimed_by,
    claimedAt: ms(r.claimed_at),
    cancelledAt: ms(r.cancelled_at),
    createdAt: Number(r.created_at),
  };
}

/** Inserts a timer; a second call with the same id changes nothing. Returns whether a row was inserted. */
export async function schedule(q: Queryable, t: NewTimer, now: number): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO timers (id, order_id, kind, node_id, run, due_at, payload, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
     ON CONFLICT (id) DO NOTHING`,
    [
      t.id,
      t.orderId ?? null,
      t.kind,
      t.nodeId ?? null,
      t.run ?? null,
      t.dueAt,
      t.payload === undefined ? null : JSON.stringify(t.payload),
      now,
    ],
  );
  return (res.rowCount ?? 0) > 0;
}

/** Cancels every pending timer of an order; returns the cancelled ids (to drop from the index). */
export async function cancelForOrder(q: Queryable, orderId: string, now: number): Promise<string[]> {
  const res = await q.query<{ id: string }>(
    `UPDATE timers SET cancelled_at = $2
     WHERE order_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL
     RETURNING id`,
    [orderId, now],
  );
  return res.rows.map((r) => r.id);
}

/** Cancels one pending timer; false when it was already fired, cancelled or unknown. */
export async function cancel(q: Queryable, id: string, now: number): Promise<boolean> {
  const res = await q.query(
    `UPDATE timers SET cancelled_at = $2 WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL`,
    [id, now],
  );
  return (res.rowCount ?? 0) > 0;
}

/** Moves a pending timer to `dueAt` (a delivery retry takes over its guard timer); false when it was already fired, cancelled or unknown. */
export async function reschedule(q: Queryable, id: string, dueAt: number): Promise<boolean> {
  const res = await q.query('UPDATE timers SET due_at = $2 WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [id, dueAt]);
  return (res.rowCount ?? 0) > 0;
}

type DueDbRow = Pick<TimerDbRow, 'id' | 'due_at' | 'kind' | 'order_id'>;

/**
 * Pending (unfired, uncancelled) timers with due_at <= until, in (due_at, id) order,
 * including late ones. Pass the last entry of a page as `after` to read the next page.
 */
export async function dueWithin(
  q: Queryable,
  until: number,
  limit: number,
  after?: DueCursor,
): Promise<(TimerIndexEntry & { kind: string; orderId: string | null })[]> {
  const res = after
    ? await q.query<DueDbRow>(
        `SELECT id, due_at, kind, order_id FROM timers
         WHERE fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $1 AND (due_at, id) > ($3, $4)
         ORDER BY due_at, id LIMIT $2`,
        [until, limit, after.dueAt, after.id],
      )
    : await q.query<DueDbRow>(
        `SELECT id, due_at, kind, order_id FROM timers
         WHERE fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $1
         ORDER BY due_at, id LIMIT $2`,
        [until, limit],
      );
  return res.rows.map((r) => ({ id: r.id, dueAt: Number(r.due_at), kind: r.kind, orderId: r.order_id ?? null }));
}

/**
 * Locks the timer row `FOR UPDATE` and returns it, only when it is pending and due at `now`;
 * otherwise null (already fired, cancelled, unknown or not yet due). Call inside the firing
 * transaction, then `markFired` in the same one: a concurrent second firer blocks on the lock
 * and then sees the row fired, so each timer takes effect once.
 */
export async function claimForFiring(q: Queryable, id: string, now: number): Promise<TimerRow | null> {
  const res = await q.query<TimerDbRow>(
    `SELECT ${COLUMNS} FROM timers
     WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $2
     FOR UPDATE`,
    [id, now],
  );
  return res.rows.length > 0 ? toRow(res.rows[0]) : null;
}

/**
 * claimForFiring and markFired in one statement: marks the timer fired and returns it (as it
 * was before, `firedAt` null) only when it is pending and due at `now`, else null. The UPDATE
 * takes the row lock as claimForFiring's FOR UPDATE does: a concurrent second firer waits,
 * then finds the row fired and gets null. Call inside the firing transaction.
 */
export async function claimAndMarkFired(q: Queryable, id: string, now: number): Promise<TimerRow | null> {
  const res = await q.query<TimerDbRow>(
    `UPDATE timers SET fired_at = $2
     WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $2
     RETURNING ${COLUMNS}`,
    [id, now],
  );
  return res.rows.length > 0 ? { ...toRow(res.rows[0]), firedAt: null } : null;
}

/**
 * The claim of one delivery attempt's timer inside the attempt's transaction: fired by its timer
 * (`claimForFiring`, so a concurrent firer waits and then finds it fired) or made directly (the first
 * attempt, marked so its timer will not fire it again). False when another claimant took it.
 */
export async function claimAttemptTimer(q: Queryable, id: string, via: 'direct' | 'timer', now: number): Promise<boolean> {
  if (via === 'timer' && !(await claimForFiring(q, id, now))) return false;
  return (await markFired(q, id, now)) || via === 'timer';
}

/** Marks a timer fired; false when it was already fired. */
export async function markFired(q: Queryable, id: string, now: number): Promise<boolean> {
  const res = await q.query(`UPDATE timers SET fired_at = $2 WHERE id = $1 AND fired_at IS NULL`, [id, now]);
  return (res.rowCount ?? 0) > 0;
}

/** The next pending timer with due_at <= until in (due_at, id) order, or null (drives the test clock). */
export async function earliestDue(q: Queryable, until: number, exclude: readonly string[] = []): Promise<TimerRow | null> {
  const res = await q.query<TimerDbRow>(
    `SELECT ${COLUMNS} FROM timers
     WHERE fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $1 AND NOT (id = ANY($2::text[]))
     ORDER BY due_at, id LIMIT 1`,
    [until, exclude],
  );
  return res.rows.length > 0 ? toRow(res.rows[0]) : null;
}

/** One timer by id, whatever its state. */
export async function getTimer(q: Queryable, id: string): Promise<TimerRow | null> {
  const res = await q.query<TimerDbRow>(`SELECT ${COLUMNS} FROM timers WHERE id = $1`, [id]);
  return res.rows.length > 0 ? toRow(res.rows[0]) : null;
}

/**
 * Fallback claim used only while the index is unavailable: leases up to `limit` due pending
 * timers to `owner` for `leaseMs` (skipping rows another node leased recently or holds locked)
 * and returns their ids. Firing stays guarded by `claimForFiring`; the lease only keeps
 * nodes from all firing the same timers at once.
 */
export async function leaseDue(
  q: Queryable,
  now: number,
  owner: string,
  leaseMs: number,
  limit: number,
): Promise<string[]> {
  const res = await q.query<{ id: string; due_at: string }>(
    `UPDATE timers SET claimed_by = $2, claimed_at = $1
     WHERE id IN (
       SELECT id FROM timers
       WHERE fired_at IS NULL AND cancelled_at IS NULL AND due_at <= $1
         AND (claimed_at IS NULL OR claimed_at <= $1 - $3::bigint)
       ORDER BY due_at, id
       LIMIT $4
       FOR UPDATE SKIP LOCKED)
     RETURNING id, due_at`,
    [now, owner, leaseMs, limit],
  );
  // RETURNING has no order: put the leased ids back in due order.
  return res.rows
    .map((r) => ({ id: r.id, dueAt: Number(r.due_at) }))
    .sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r) => r.id);
}

// Opens a command's transaction in one round trip and one statement: BEGIN, lock the order row with its node records, open waits and holds.
import type { PoolClient } from 'pg';
import { toNodeRecords, type NodeRecord, type StoredNodeRecord } from './node-record.js';
import { toRunRow, type RunDbRow, type RunRow } from './run-row.js';
import type { OrderSubject } from '../order-subject.js';
import { toWait, type WaitDbRow, type WaitRow } from './waits.js';
import { toHold, type HoldDbRow, type HoldRow } from './holds.js';
import { sqlString } from './sql-literal.js';
import { isStalePlanError, StalePreparedPlan } from './stale-prepared-plan.js';
import { parseReferenceVersion, REFERENCE_VERSION_SQL, type ReferenceVersion } from '../../db/reference-cache.js';
import type { CachedRead } from '../../db/transaction-read-cache.js';

/** The locked order and what a slice needs of it, read after the lock was granted. */
export interface LockedOrder {
  order: RunRow;
  nodes: Map<string, NodeRecord>;
  /** Open waits in (since, node_id) order, as `openWaits` returns them. */
  waits: WaitRow[];
  /** Open holds (contract 16) in (since, node_id) order. */
  holds: HoldRow[];
  /** The reference data's version as the read after the lock saw it (reference-cache.ts); null when unknown. */
  referenceVersion: ReferenceVersion | null;
  /** Rows the command already has (a new order's lines), for the slice's read cache. */
  seeds?: readonly CachedRead[];
  /** A new order whose row is not written yet: its columns as JSON, which the slice's write inserts with the slice's outcome. */
  newRow?: string;
}

/**
 * The reads, prepared once per connection so each command only executes them (no parse, no plan). `oo_lock` locks
 * the order row and returns it with its node records (`orders.nodes`), its open waits and holds as JSON and the
 * reference data's version (what the slice's steps may then take from the reference cache), and whether the row it
 * locked is the version its snapshot saw (`oo_current`). `oo_lock_state` reads the waits, holds and version again,
 * for when it is not.
 *
 * Why one statement can be trusted only so: under READ COMMITTED a statement reads with the snapshot it started
 * with. If another command committed a change to the order after that snapshot was taken (while this one waited for
 * the lock, or just before it asked), `FOR UPDATE` locks and returns the row's newest version, but the waits and
 * holds subqueries still read the older snapshot. Every transaction that changes an order's waits or holds also
 * updates its row (a slice's write ends with its `UPDATE orders`; a move updates `flow_version`), so the locked
 * row's `xmin` differs from the snapshot's version of it exactly when the waits may be stale; then the state is
 * read again by a statement of its own, which runs after the lock is held.
 */
const LOCK_STATE_COLUMNS = `
    (SELECT coalesce(json_agg(w ORDER BY w.since, w.node_id), '[]') FROM order_waits w WHERE w.order_id = $1 AND w.status = 'open') AS oo_waits,
    (SELECT coalesce(json_agg(h ORDER BY h.since, h.node_id), '[]') FROM order_holds h WHERE h.order_id = $1 AND h.status = 'open') AS oo_holds,
    ${REFERENCE_VERSION_SQL} AS oo_reference_version`;
const PREPARE_LOCK_STATEMENTS = `
  PREPARE oo_lock(text) AS SELECT o.*, o.xmin = (SELECT x.xmin FROM orders x WHERE x.id = $1) AS oo_current, ${LOCK_STATE_COLUMNS}
    FROM orders o WHERE o.id = $1 FOR UPDATE;
  PREPARE oo_lock_state(text) AS SELECT ${LOCK_STATE_COLUMNS}`;

/** Pool connections that hold the prepared lock statements (a new connection prepares them first). */
const prepared = new WeakSet<PoolClient>();

interface LockStateRow {
  oo_waits: WaitDbRow[];
  oo_holds: HoldDbRow[];
  oo_reference_version: unknown;
}

type LockRow = RunDbRow & { nodes: Record<string, StoredNodeRecord> } & LockStateRow & { oo_current: boolean };

/**
 * Sends `BEGIN; EXECUTE oo_lock(id)` as one simple-protocol message: the transaction, the order locked, its node
 * records, open waits and holds, in one round trip and one statement. When another command's commit changed the
 * order between this statement's snapshot and its lock (`oo_current` false, see above), the state is read again in
 * a second round trip. Leaves the transaction open (also when the order does not exist: null); the caller commits
 * or rolls back. The order's facts are what the host's `subject` reads of the row. A prepared read made stale by
 * another node's migration throws StalePreparedPlan (the caller drops the connection).
 */
export async function beginAndLockOrder(client: PoolClient, orderId: string, subject: OrderSubject): Promise<LockedOrder | null> {
  if (!prepared.has(client)) {
    await client.query(PREPARE_LOCK_STATEMENTS);
    prepared.add(client);
  }
  const id = sqlString(orderId);
  let row: LockRow | undefined;
  let state: LockStateRow | undefined;
  try {
    // pg types a multi-statement query as one result; it answers one result per statement (BEGIN, the lock).
    const [, locked] = (await client.query(`BEGIN; EXECUTE oo_lock(${id})`)) as unknown as [{ rows: [] }, { rows: LockRow[] }];
    row = locked.rows[0];
    state = row;
    if (row && !row.oo_current) state = (await client.query<LockStateRow>(`EXECUTE oo_lock_state(${id})`)).rows[0];
  } catch (err) {
    throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
  }
  if (!row || !state) return null;
  const { oo_waits: waits, oo_holds: holds, oo_reference_version: referenceVersion } = state;
  const { oo_current: _current, oo_waits: _waits, oo_holds: _holds, oo_reference_version: _version, ...orderRow } = row;
  return {
    order: toRunRow(orderRow, subject),
    nodes: toNodeRecords(orderRow.nodes),
    waits: waits.map(toWait),
    holds: holds.map(toHold),
    referenceVersion: parseReferenceVersion(referenceVersion),
  };
}

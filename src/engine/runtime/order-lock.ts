// Opens a command's transaction in one round trip: BEGIN, lock the order row (with its node records), read its open waits and holds.
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
 * The two reads, prepared once per connection so each command only executes them (no parse, no
 * plan): the order row, locked, with its node records (`orders.nodes`); then its open waits and holds as JSON in one
 * statement (one statement fewer per command than reading each table on its own), with the
 * reference data's version (what the slice's steps may then take from the reference cache).
 */
const PREPARE_LOCK_STATEMENTS = `
  PREPARE oo_lock_order(text) AS SELECT * FROM orders WHERE id = $1 FOR UPDATE;
  PREPARE oo_lock_state(text) AS SELECT
    (SELECT coalesce(json_agg(w ORDER BY w.since, w.node_id), '[]') FROM order_waits w WHERE w.order_id = $1 AND w.status = 'open') AS waits,
    (SELECT coalesce(json_agg(h ORDER BY h.since, h.node_id), '[]') FROM order_holds h WHERE h.order_id = $1 AND h.status = 'open') AS holds,
    ${REFERENCE_VERSION_SQL} AS reference_version`;

/** Pool connections that hold the prepared lock statements (a new connection prepares them first). */
const prepared = new WeakSet<PoolClient>();

/**
 * Sends `BEGIN; EXECUTE lock order; EXECUTE node records and open waits` as one
 * simple-protocol message. The statements run one after the other, each with its own snapshot
 * (READ COMMITTED), so the second read runs after the lock is held and sees what the previous
 * holder committed, exactly as separate round trips would (one statement could not: its
 * snapshot would predate the wait for the lock). Leaves the transaction open (also
 * when the order does not exist: null); the caller commits or rolls back. The order's facts are
 * what the host's `subject` reads of the row. A prepared read made
 * stale by another node's migration throws StalePreparedPlan (the caller drops the connection).
 */
export async function beginAndLockOrder(client: PoolClient, orderId: string, subject: OrderSubject): Promise<LockedOrder | null> {
  if (!prepared.has(client)) {
    await client.query(PREPARE_LOCK_STATEMENTS);
    prepared.add(client);
  }
  const id = sqlString(orderId);
  let results: [{ rows: [] }, { rows: (RunDbRow & { nodes: Record<string, StoredNodeRecord> })[] }, { rows: [{ waits: WaitDbRow[]; holds: HoldDbRow[]; reference_version: unknown }] }];
  try {
    // pg types a multi-statement query as one result; it answers one result per statement (BEGIN, the order, its state).
    results = (await client.query(`BEGIN; EXECUTE oo_lock_order(${id}); EXECUTE oo_lock_state(${id})`)) as unknown as typeof results;
  } catch (err) {
    throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
  }
  const [, orders, state] = results;
  if (orders.rows.length === 0) return null;
  const { waits, holds, reference_version } = state.rows[0];
  return {
    order: toRunRow(orders.rows[0], subject),
    nodes: toNodeRecords(orders.rows[0].nodes),
    waits: waits.map(toWait),
    holds: holds.map(toHold),
    referenceVersion: parseReferenceVersion(reference_version),
  };
}

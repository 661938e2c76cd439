// Opens a command's transaction in one round trip: BEGIN, lock the order row, read its node records and open waits.
import type { PoolClient } from 'pg';
import { toNodeRecord, type NodeRecord } from './node-record.js';
import { toOrderRow, type OrderRow } from './order-row.js';
import { toWait, type WaitRow } from './waits.js';
import { sqlString } from './sql-literal.js';
import { isStalePlanError, StalePreparedPlan } from './stale-prepared-plan.js';

/** The locked order and what a slice needs of it, read after the lock was granted. */
export interface LockedOrder {
  order: OrderRow;
  nodes: Map<string, NodeRecord>;
  /** Open waits in (since, node_id) order, as `openWaits` returns them. */
  waits: WaitRow[];
}

/** The three reads, prepared once per connection so each command only executes them (no parse, no plan). */
const PREPARE_LOCK_STATEMENTS = `
  PREPARE oo_lock_order(text) AS SELECT * FROM orders WHERE id = $1 FOR UPDATE;
  PREPARE oo_lock_nodes(text) AS SELECT * FROM order_nodes WHERE order_id = $1;
  PREPARE oo_lock_waits(text) AS SELECT * FROM order_waits WHERE order_id = $1 AND status = 'open' ORDER BY since, node_id`;

/** Pool connections that hold the prepared lock statements (a new connection prepares them first). */
const prepared = new WeakSet<PoolClient>();

/**
 * Sends `BEGIN; EXECUTE lock order; EXECUTE node records; EXECUTE open waits` as one
 * simple-protocol message. The statements run one after the other, each with its own snapshot
 * (READ COMMITTED), so the two reads run after the lock is held and see what the previous
 * holder committed, exactly as separate round trips would. Leaves the transaction open (also
 * when the order does not exist: null); the caller commits or rolls back. A prepared read made
 * stale by another node's migration throws StalePreparedPlan (the caller drops the connection).
 */
export async function beginAndLockOrder(client: PoolClient, orderId: string): Promise<LockedOrder | null> {
  if (!prepared.has(client)) {
    await client.query(PREPARE_LOCK_STATEMENTS);
    prepared.add(client);
  }
  const id = sqlString(orderId);
  let results: { rows: any[] }[];
  try {
    results = (await client.query(`BEGIN; EXECUTE oo_lock_order(${id}); EXECUTE oo_lock_nodes(${id}); EXECUTE oo_lock_waits(${id})`)) as unknown as {
      rows: any[];
    }[];
  } catch (err) {
    throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
  }
  const [, orders, nodes, waits] = results;
  if (orders.rows.length === 0) return null;
  return {
    order: toOrderRow(orders.rows[0]),
    nodes: new Map(nodes.rows.map((r) => [r.node_id as string, toNodeRecord(r)])),
    waits: waits.rows.map(toWait),
  };
}

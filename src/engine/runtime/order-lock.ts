// Opens a command's transaction in one round trip: BEGIN, lock the order row, read its node records and open waits.
import type { PoolClient } from 'pg';
import { toNodeRecord, type NodeRecord } from './node-record.js';
import { toOrderRow, type OrderRow } from './order-row.js';
import { toWait, type WaitRow } from './waits.js';
import { sqlString } from './sql-literal.js';

/** The locked order and what a slice needs of it, read after the lock was granted. */
export interface LockedOrder {
  order: OrderRow;
  nodes: Map<string, NodeRecord>;
  /** Open waits in (since, node_id) order, as `openWaits` returns them. */
  waits: WaitRow[];
}

/**
 * Sends `BEGIN; SELECT … FOR UPDATE; SELECT order_nodes; SELECT open order_waits` as one
 * simple-protocol message. The statements run one after the other, each with its own snapshot
 * (READ COMMITTED), so the two reads run after the lock is held and see what the previous
 * holder committed, exactly as separate round trips would. Leaves the transaction open (also
 * when the order does not exist: null); the caller commits or rolls back.
 */
export async function beginAndLockOrder(client: PoolClient, orderId: string): Promise<LockedOrder | null> {
  const id = sqlString(orderId);
  const results = (await client.query(
    `BEGIN;
     SELECT * FROM orders WHERE id = ${id} FOR UPDATE;
     SELECT * FROM order_nodes WHERE order_id = ${id};
     SELECT * FROM order_waits WHERE order_id = ${id} AND status = 'open' ORDER BY since, node_id`,
  )) as unknown as { rows: any[] }[];
  const [, orders, nodes, waits] = results;
  if (orders.rows.length === 0) return null;
  return {
    order: toOrderRow(orders.rows[0]),
    nodes: new Map(nodes.rows.map((r) => [r.node_id as string, toNodeRecord(r)])),
    waits: waits.rows.map(toWait),
  };
}

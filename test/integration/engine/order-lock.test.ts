// A command's lock read is one statement when nobody changed the order since its snapshot, and reads the waits again when someone did.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { beginAndLockOrder } from '../../../src/engine/runtime/order-lock.js';
import { ordersSubject } from '../../../src/orders/order-subject.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';
import { recordingClient } from '../../support/recording-client.js';
import { until } from '../../support/until.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

/** A waiting order with one open event wait, written as a slice would leave it. */
async function waitingOrder(id: string): Promise<void> {
  await t.db.query(
    `INSERT INTO orders (id, flow_id, flow_version, model, channel, currency, fx_rate, input, status, instance_id, compiler_version, created_at, updated_at)
     VALUES ($1, 'f', 1, 'b2c', 'api', 'USD', 1, '{}', 'waiting', 'i1', 1, 1, 1)`,
    [id],
  );
  await t.db.query(
    `INSERT INTO order_waits (order_id, node_id, run, generation, kind, event, since, status) VALUES ($1, 'goods', 1, 1, 'event', 'goods.received', 1, 'open')`,
    [id],
  );
}


it('nobody changed the order: BEGIN and one EXECUTE give the row, its records and its open waits', async () => {
  await waitingOrder('ord_lock_quiet');
  const { client, sent } = await recordingClient(t.db.pool);
  try {
    await beginAndLockOrder(client, 'ord_lock_quiet', ordersSubject); // prepares the statements on this connection
    await client.query('ROLLBACK');
    sent.length = 0;
    const locked = await beginAndLockOrder(client, 'ord_lock_quiet', ordersSubject);
    expect(sent).toEqual([`BEGIN; EXECUTE oo_lock('ord_lock_quiet')`]);
    expect(locked?.order.status).toBe('waiting');
    expect(locked?.waits.map((w) => [w.nodeId, w.status])).toEqual([['goods', 'open']]);
    expect(await beginAndLockOrder(client, 'ord_nowhere', ordersSubject)).toBeNull(); // (same transaction: a no-op BEGIN)
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
});

it('a command that committed while this one waited for the lock: its waits are read again, after the lock (not the stale snapshot)', async () => {
  await waitingOrder('ord_lock_race');
  const other = await t.db.pool.connect();
  const { client, sent } = await recordingClient(t.db.pool);
  try {
    await beginAndLockOrder(client, 'ord_lock_race', ordersSubject);
    await client.query('ROLLBACK');
    sent.length = 0;
    // Another command holds the order and closes its wait, as a slice that took the event would.
    await other.query('BEGIN');
    await other.query(`SELECT 1 FROM orders WHERE id = 'ord_lock_race' FOR UPDATE`);
    await other.query(`UPDATE order_waits SET status = 'received', closed_at = 2 WHERE order_id = 'ord_lock_race'`);
    await other.query(`UPDATE orders SET status = 'running', updated_at = 2 WHERE id = 'ord_lock_race'`);
    const locking = beginAndLockOrder(client, 'ord_lock_race', ordersSubject); // blocks on the lock
    // Commit only once the lock read waits in PostgreSQL (its snapshot taken before this commit), however slow the machine.
    await until('the lock read waiting for the lock', async () => {
      const { rows } = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%oo_lock(''ord_lock_race'')%'",
      );
      return rows[0]!.n === 1;
    }, 10_000);
    await other.query('COMMIT');
    const locked = await locking;
    expect(locked?.order.status).toBe('running');
    expect(locked?.waits).toEqual([]);
    expect(sent).toEqual([`BEGIN; EXECUTE oo_lock('ord_lock_race')`, `EXECUTE oo_lock_state('ord_lock_race')`]);
  } finally {
    await client.query('ROLLBACK');
    client.release();
    other.release();
  }
});

// Proves contract 18's durability of a return (issue 36): a SIGKILL after the return's refund and restock ran but before
// their slice committed keeps neither; delivered again after restart, the return refunds once and restocks once.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { ServiceProcess } from './support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';
import { outboxId } from '../../src/engine/runtime/outbox.js';
import { until } from '../support/until.js';


let database: TestDatabase | null = null;
let svc: ServiceProcess | null = null;
const clients: pg.Client[] = [];
afterAll(async () => {
  await svc?.kill('group');
  await svc?.close();
  for (const c of clients) await c.end().catch(() => undefined);
  await database?.drop();
});

describe('a return and a crash (child process)', () => {
  it('SIGKILL between the refund and the commit of its slice: nothing refunded or restocked; after restart the return refunds once and restocks once', async () => {
    database = await createTestDatabase();
    const db = dbProbe(() => database!.url);
    svc = new ServiceProcess({ env: { DATABASE_URL: database.url, REDIS_URL: undefined } });
    const service = svc;
    await service.start();

    // A marketplace order of an auto-accepting seller: captured at once, resting in its return window.
    const placed = await service.call('POST', '/api/v1/orders', {
      flowId: 'tpl-marketplace-order',
      input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku: 'PRINT-A3', qty: 2 }] },
    });
    expect(placed.status, placed.text).toBe(201);
    const orderId: string = placed.body.orderId;
    const started = await service.call('POST', `/api/v1/orders/${orderId}/returns`, { lines: [{ sku: 'PRINT-A3', qty: 1 }] });
    expect(started.status, started.text).toBe(201);
    const returnId: string = started.body.returnId;
    const [shipped] = await db("SELECT location_id FROM stock_reservations WHERE order_id = $1 AND status = 'consumed'", [orderId]);
    const onHand = async () => Number((await db('SELECT on_hand FROM stock_levels WHERE sku = $1 AND location_id = $2', ['PRINT-A3', shipped.location_id]))[0].on_hand);
    const before = await onHand();

    // Hold the outbox id the return's refund writes, in an open transaction: the slice that ran the refund and the
    // restock and ended the return waits on it in its one write statement, before its commit.
    const blocker = new pg.Client({ connectionString: database.url });
    const watcher = new pg.Client({ connectionString: database.url });
    clients.push(blocker, watcher);
    await blocker.connect();
    await watcher.connect();
    await blocker.query('BEGIN');
    await blocker.query("INSERT INTO outbox (id, order_id, event, occurred_at, data, created_at) VALUES ($1, $2, 'blocker', 0, '{}', 0)", [
      outboxId(returnId, 1, { event: 'order.refunded', nodeId: 'refund', run: 1 }),
      orderId,
    ]);
    const delivering = service.call('POST', `/api/v1/orders/${returnId}/events`, { event: 'return.received' }, { timeoutMs: 60_000 });
    await until('the return slice waiting on its outbox insert', async () => {
      const { rows } = await watcher.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO outbox%'",
      );
      return rows[0].n > 0;
    });
    await service.kill('group');
    await delivering;
    await blocker.query('ROLLBACK');

    // Nothing of the killed slice: the return still waits for its goods, no refund, no units back.
    expect((await db('SELECT status FROM orders WHERE id = $1', [returnId]))[0].status).toBe('waiting');
    expect(await db('SELECT id FROM refunds WHERE order_id IN ($1, $2)', [orderId, returnId])).toEqual([]);
    expect(await db('SELECT id FROM stock_receipts WHERE order_id = $1', [returnId])).toEqual([]);
    expect(await onHand()).toBe(before);

    // Restarted, the goods are reported again: one refund through the order's payment, one restock, one order.refunded.
    await service.start();
    const again = await service.call('POST', `/api/v1/orders/${returnId}/events`, { event: 'return.received' });
    expect(again.status, again.text).toBe(200);
    expect(again.body.delivered).toBe(true);
    const done = await until('the return completed', async () => {
      const res = await service.call('GET', `/api/v1/orders/${returnId}`);
      return res.status === 200 && res.body.status === 'completed' ? res.body : null;
    });
    expect(done.nodes.refund).toMatchObject({ status: 'succeeded', runs: 1 });
    expect(done.nodes.restock).toMatchObject({ status: 'succeeded', runs: 1 });
    expect(await db('SELECT order_id, amount_minor FROM refunds WHERE order_id IN ($1, $2)', [orderId, returnId])).toEqual([{ order_id: orderId, amount_minor: '2800' }]);
    expect(await db('SELECT qty FROM stock_receipts WHERE order_id = $1', [returnId])).toEqual([{ qty: 1 }]);
    expect(await onHand()).toBe(before + 1);
    expect(await db("SELECT order_id, data->>'returnId' AS return_id FROM outbox WHERE event = 'order.refunded'")).toEqual([{ order_id: orderId, return_id: returnId }]);
    await service.terminate();
  });
});

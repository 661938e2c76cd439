// A new order's row is written once (issue 37): its first slice inserts it with the slice's outcome, not an insert then an update.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphs, publishFlow, startBody, startOrdersService } from './orders-support.js';
import type { TestService } from '../../support/test-service.js';
import { firstSliceOrder } from '../../../src/orders/new-order.js';

let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'one-version-wait', graphs.eventWait);
  await publishFlow(t, 'one-version-steps', graphs.emitting);
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.service.ctx.db;

/** Where the row of `id` lies (page, tuple). In a fresh table the first rows take tuples (0,1), (0,2), ... when each is
 * written once; a row inserted and then updated leaves its dead first version behind it, and its live one a tuple later. */
async function ctidOf(id: string): Promise<string> {
  const { rows } = await db().query<{ ctid: string }>('SELECT ctid::text FROM orders WHERE id = $1', [id]);
  return rows[0].ctid;
}

it('the first orders of a fresh database take one tuple each: waiting, completed in one slice, and their lines and origin are there', async () => {
  const { rows: before } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
  expect(before[0].n).toBe(0);

  const waiting = await t.call('POST', '/api/v1/orders', startBody('one-version-wait'));
  expect(waiting.status).toBe(201);
  const done = await t.call('POST', '/api/v1/orders', startBody('one-version-steps'));
  expect(done.status).toBe(201);

  // Two orders, two tuples: (0,1) and (0,2). Inserting then updating would have left (0,2) and (0,4) live.
  expect(await ctidOf(waiting.body.orderId)).toBe('(0,1)');
  expect(await ctidOf(done.body.orderId)).toBe('(0,2)');

  const live = await t.call('GET', `/api/v1/orders/${waiting.body.orderId}`);
  expect(live.body.status).toBe('waiting');
  expect(live.body.waits.map((w: { event: string }) => w.event)).toEqual(['payment.received']);
  const finished = await t.call('GET', `/api/v1/orders/${done.body.orderId}`);
  expect(finished.body.status).toBe('completed');
  const { rows: lines } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM order_lines WHERE order_id = ANY($1)', [[waiting.body.orderId, done.body.orderId]]);
  expect(lines[0].n).toBe(2);
  const { rows: origins } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM order_origins WHERE order_id = ANY($1)', [[waiting.body.orderId, done.body.orderId]]);
  expect(origins[0].n).toBe(2);
});

it('an order row stored by the first slice equals what an event later reads back: the node map text, arrays, numbers and nulls', async () => {
  const res = await t.call('POST', '/api/v1/orders', startBody('one-version-wait'));
  expect(res.status).toBe(201);
  const { rows } = await db().query<Record<string, unknown>>(
    'SELECT status, started, generation, step_seq, waiting_on, waiting_at, title, reason, snapshot, rollback, nodes::text AS nodes, fx_rate FROM orders WHERE id = $1',
    [res.body.orderId],
  );
  expect(rows[0]).toMatchObject({ status: 'waiting', started: true, generation: 1, title: null, reason: null, rollback: null });
  expect(rows[0].waiting_on).toHaveLength(1);
  expect(rows[0].snapshot).toMatchObject({ value: 'pay' });
  expect(rows[0].fx_rate).toBe('1');
  // The node map keeps the text the slice wrote (keys in the run's order), as an update writes it.
  expect(Object.keys(JSON.parse(rows[0].nodes as string))).toEqual(['start', 'pay']);
  const event = await t.call('POST', `/api/v1/orders/${res.body.orderId}/events`, { event: 'payment.received', payload: {} });
  expect(event.status).toBe(200);
  expect((await t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body.status).toBe('completed');
});

it('a reference from an order row that is never written still fails at COMMIT (the deferred foreign keys check)', async () => {
  await expect(
    db().tx(async (tx) => {
      await tx.query(`INSERT INTO order_lines (order_id, line_no, sku, qty) VALUES ('ord_000000000000000000000000', 1, 'MUG-1', 1)`);
    }),
  ).rejects.toMatchObject({ code: '23503' });
  const { rows } = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM order_lines WHERE order_id = 'ord_000000000000000000000000'`);
  expect(rows[0].n).toBe(0);
});

it('the row a new order\'s first slice runs on (built in the service) is the row as PostgreSQL stores its columns', async () => {
  const base = {
    id: 'ord_rowcheck0000000000000001', flowId: 'one-version-wait', flowVersion: 1, model: 'marketplace', channel: 'api',
    externalId: 'ext-1', title: 'It\'s "quoted" ünïcødé', customerId: null, contactEmail: 'a@example.com', currency: 'EUR',
    fxRate: 0.92, subtotal: 12_345_678_901, tax: 0, total: 12_345_678_901, input: { b: 1, a: [{ x: null }] }, meta: {},
    vars: { k: 'v' }, lines: [], restartedFrom: null,
  };
  const recorded = { context: { flowVersion: 1, settings: {} as never }, referenceVersion: null, seeds: [] };
  for (const o of [base, { ...base, externalId: null, title: null, contactEmail: null, fxRate: 1, subtotal: 0, total: 0, vars: {}, restartedFrom: 'ord_x', returnOf: 'ord_y' }]) {
    const { row, newRow } = firstSliceOrder(o, 1_795_807_347_963, recorded);
    const { rows } = await db().query('SELECT o.* FROM jsonb_populate_record(NULL::orders, $1::jsonb) AS o', [newRow]);
    const stored = Object.fromEntries(Object.keys(row).map((k) => [k, rows[0][k]]));
    expect(row).toEqual(stored);
  }
});

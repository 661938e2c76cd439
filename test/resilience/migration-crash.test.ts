// Proves contract 15's crash rule (issue 34): a SIGKILL while a batch moves N orders to a new flow version (60 in npm test,
// 1,000 under RESILIENCE=full) leaves each order wholly on one version (its row, node records, open wait, timer and timeline
// entry agree), and after a restart the batch finishes with every order moved exactly once, going on on the new graph.
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { ServiceProcess } from './support/service-process.js';
import { SIZES } from './support/resilience-size.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';
import { until } from '../support/until.js';

const ORDERS = SIZES.migrate.orders;
const FLOW = 'mig-crash';


/** Version 1 waits at `wait_go`; version 2 calls it `await_go` and adds a one-minute delay after it. */
function graph(version: 1 | 2) {
  const wait = version === 1 ? 'wait_go' : 'await_go';
  const nodes: { id: string; type: string; params?: Record<string, unknown> }[] = [
    { id: 'start', type: 'trigger.api' },
    { id: wait, type: 'wait.event', params: { event: 'go', timeout: '30d' } },
    { id: 'done', type: 'end', params: { outcome: 'completed' } },
    { id: 'late', type: 'end', params: { outcome: 'cancelled', reason: 'No go' } },
  ];
  const edges = [{ from: 'start', to: wait }, { from: wait, to: 'late', branch: 'timeout' }];
  if (version === 1) edges.push({ from: wait, to: 'done', branch: 'received' });
  else {
    nodes.push({ id: 'cool', type: 'wait.delay', params: { duration: '1m' } });
    edges.push({ from: wait, to: 'cool', branch: 'received' }, { from: 'cool', to: 'done' });
  }
  return { name: 'Migration crash', graph: { nodes, edges } };
}

let database: TestDatabase | null = null;
let svc: ServiceProcess | null = null;
afterAll(async () => {
  await svc?.kill('group');
  await svc?.close();
  await database?.drop();
});

/** Each order's version against everything a move rewrites: they must all say the same version. */
const STATE_SQL = `SELECT o.id, o.flow_version AS version, o.snapshot->>'value' AS at, (SELECT string_agg(k, ',' ORDER BY k) FROM json_object_keys(o.nodes) k) AS records,
    (SELECT count(*)::int FROM order_timeline x WHERE x.order_id = o.id AND x.kind = 'order.moved') AS moves,
    (SELECT string_agg(w.node_id, ',') FROM order_waits w WHERE w.order_id = o.id AND w.status = 'open') AS waits,
    (SELECT string_agg(t.node_id, ',') FROM timers t WHERE t.order_id = o.id AND t.fired_at IS NULL AND t.cancelled_at IS NULL) AS timers
  FROM orders o WHERE o.flow_id = $1`;

describe('a move of live orders killed midway (child process)', () => {
  it(`SIGKILL while ${ORDERS} orders move: each is wholly on one version; after restart the batch finishes, each moved once`, async () => {
    database = await createTestDatabase();
    const db = dbProbe(() => database!.url);
    svc = new ServiceProcess({ env: { DATABASE_URL: database.url, REDIS_URL: undefined } });
    const service = svc;
    await service.start();
    expect((await service.call('PUT', `/api/v1/flows/${FLOW}`, graph(1))).status).toBe(200);
    expect((await service.call('POST', `/api/v1/flows/${FLOW}/publish`)).status).toBe(200);
    for (let i = 0; i < ORDERS; i += 25)
      await Promise.all(
        Array.from({ length: Math.min(25, ORDERS - i) }, async (_, j) => {
          const res = await service.call('POST', '/api/v1/orders', { flowId: FLOW, input: { model: 'b2c', title: `move ${i + j}`, lines: [{ sku: 'MUG-1', qty: 1 }] } });
          expect(res.status, res.text).toBe(201);
        }),
      );
    expect((await service.call('PUT', `/api/v1/flows/${FLOW}`, graph(2))).status).toBe(200);
    expect((await service.call('POST', `/api/v1/flows/${FLOW}/publish`)).status).toBe(200);

    const started = await service.call('POST', `/api/v1/flows/${FLOW}/migrations`, { fromVersion: 1, mapping: { wait_go: 'await_go' } });
    expect(started.status, started.text).toBe(202);
    const batchId = started.body.batch.id as string;
    expect(started.body.batch.total).toBe(ORDERS);
    await until('a quarter moved', async () => {
      const [{ n }] = await db<{ n: number }>("SELECT count(*)::int AS n FROM batch_items WHERE batch_id = $1 AND state <> 'pending'", [batchId]);
      return n >= ORDERS / 4;
    }, 60_000);
    await service.kill('group');

    // Wholly on one version: version 1 at wait_go with nothing renamed, or version 2 at await_go with one timeline entry.
    const onV1 = { version: 1, at: 'wait_go', records: 'start,wait_go', moves: 0, waits: 'wait_go', timers: 'wait_go' };
    const onV2 = { version: 2, at: 'await_go', records: 'await_go,start', moves: 1, waits: 'await_go', timers: 'await_go' };
    const crashed = await db(STATE_SQL, [FLOW]);
    expect(crashed).toHaveLength(ORDERS);
    for (const row of crashed) expect(row).toEqual({ id: row.id, ...(row.version === 1 ? onV1 : onV2) });
    const movedBefore = crashed.filter((r) => r.version === 2).length;
    expect(movedBefore).toBeGreaterThan(0);
    expect(movedBefore).toBeLessThan(ORDERS);

    // Restart; the test clock runs past the claimed order's lease (20 s), so it is taken again (moving is idempotent).
    await service.start();
    expect((await service.call('POST', '/api/v1/test/clock', { advanceMs: 60_000 })).status).toBe(200);
    const batch = await until('the batch finished', async () => {
      const res = await service.call('GET', `/api/v1/batches/${batchId}`);
      return res.body.batch?.state === 'completed' ? res.body.batch : null;
    }, 120_000);
    expect(batch).toMatchObject({ total: ORDERS, done: ORDERS, failed: 0, skipped: 0 });
    const after = await db(STATE_SQL, [FLOW]);
    for (const row of after) expect(row).toEqual({ id: row.id, ...onV2 });
    console.log(`[resilience] migration crash (${SIZES.form}): ${movedBefore} of ${ORDERS} moved before the kill; all ${ORDERS} after the restart`);

    // The next event continues on the new graph: the added delay, then the end.
    const [{ id }] = after;
    expect((await service.call('POST', `/api/v1/orders/${id}/events`, { event: 'go', payload: {} })).body).toEqual({ delivered: true, nodeId: 'await_go' });
    expect((await service.call('POST', '/api/v1/test/clock', { advanceMs: 120_000 })).status).toBe(200);
    const done = await until('the order completed', async () => {
      const res = await service.call('GET', `/api/v1/orders/${id}`);
      return res.body.status === 'completed' ? res.body : null;
    }, 60_000);
    expect(done.nodes.cool.status).toBe('succeeded');
    await service.terminate();
  });
});

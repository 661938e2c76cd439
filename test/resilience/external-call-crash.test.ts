// Proves issue 20's crash rule for external steps: a SIGKILL between an http.call's request and its recorded answer repeats the call after restart with the same Idempotency-Key, and the order's effects are recorded once.
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { ServiceProcess } from './support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';
import { startBody } from '../integration/orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../support/scripted-receiver.js';

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let database: TestDatabase | null = null;
let svc: ServiceProcess | null = null;
let rx: ScriptedReceiver | null = null;
afterAll(async () => {
  // SIGKILL (not SIGTERM) so no child outlives the file even when the test failed half-way.
  await svc?.kill('group');
  await svc?.close();
  await rx?.close();
  await database?.drop();
});

describe('external call crash (child process)', () => {
  it('SIGKILL between the call and its recorded answer: after restart the call is repeated with the same Idempotency-Key, and the order effects are recorded once', async () => {
    database = await createTestDatabase();
    const db = dbProbe(() => database!.url);
    // The first request on /charge never gets an answer; every later one is answered at once.
    rx = await startScriptedReceiver();
    rx.script('/charge', (k) => (k === 1 ? 'hang' : { status: 200, body: { chargeId: 'ch_1' } }));
    const receiver = rx;
    svc = new ServiceProcess({ env: { DATABASE_URL: database.url, REDIS_URL: undefined, OUTBOUND_ALLOW_LOOPBACK: '1' } });
    const service = svc;
    await service.start();

    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'call', type: 'http.call', params: { url: `${receiver.url}/charge`, timeout: '5s' } },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'call' },
        { from: 'call', to: 'done' },
      ],
    };
    const saved = await service.call('PUT', '/api/v1/flows/charge-flow', { name: 'Charge', graph });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.problems).toEqual([]);
    const published = await service.call('POST', '/api/v1/flows/charge-flow/publish');
    expect(published.status, published.text).toBe(200);

    const started = await service.call('POST', '/api/v1/orders', startBody('charge-flow'));
    expect(started.status, started.text).toBe(201);
    const orderId: string = started.body.orderId;

    // The request is out (the receiver holds it): kill the whole process group before any answer is recorded.
    await until('the first request on /charge', async () => receiver.on('/charge').length === 1);
    await service.kill('group');

    const callsAfterCrash = await db('SELECT status, attempt, idempotency_key FROM order_calls WHERE order_id = $1', [orderId]);
    expect(callsAfterCrash).toEqual([{ status: 'pending', attempt: 1, idempotency_key: receiver.on('/charge')[0].headers['idempotency-key'] }]);
    const [orderAfterCrash] = await db('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(orderAfterCrash.status).toBe('running');
    const [nodeAfterCrash] = await db("SELECT status FROM order_nodes WHERE order_id = $1 AND node_id = 'call'", [orderId]);
    expect(nodeAfterCrash.status).toBe('running');
    expect(await db("SELECT event FROM outbox WHERE order_id = $1 AND event = 'order.completed'", [orderId])).toEqual([]);
    const [timerAfterCrash] = await db("SELECT fired_at FROM timers WHERE order_id = $1 AND kind = 'call.perform'", [orderId]);
    expect(timerAfterCrash.fired_at).toBeNull();

    // Restart on the same database and move the test clock past the lease (timeout 5 s + 5 s margin): the call is made again.
    await service.start();
    const advanced = await service.call('POST', '/api/v1/test/clock', { advanceMs: 60_000 });
    expect(advanced.status, advanced.text).toBe(200);
    const done = await until('the order completed', async () => {
      const res = await service.call('GET', `/api/v1/orders/${orderId}`);
      return res.status === 200 && res.body.status === 'completed' ? res.body : null;
    });

    const tries = receiver.on('/charge');
    expect(tries).toHaveLength(2);
    expect(tries[0].headers['idempotency-key']).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(tries[1].headers['idempotency-key']).toBe(tries[0].headers['idempotency-key']);
    expect(tries[1].body).toEqual(tries[0].body);

    expect(done.nodes.call).toMatchObject({ status: 'succeeded', output: { status: 200, body: { chargeId: 'ch_1' }, attempts: 1 } });
    const callEntries = (kind: string) => done.timeline.filter((x: any) => x.kind === kind && x.nodeId === 'call');
    expect(callEntries('node.call')).toHaveLength(1);
    expect(callEntries('node.answer')).toHaveLength(1);
    expect(callEntries('node.succeeded')).toHaveLength(1);

    const calls = await db('SELECT status, attempt, answer FROM order_calls WHERE order_id = $1', [orderId]);
    expect(calls).toEqual([{ status: 'answered', attempt: 1, answer: expect.objectContaining({ status: 200, body: { chargeId: 'ch_1' } }) }]);
    const timers = await db("SELECT fired_at FROM timers WHERE order_id = $1 AND kind = 'call.perform'", [orderId]);
    expect(timers).toHaveLength(1);
    expect(timers[0].fired_at).not.toBeNull();
    // The whole stored history of the order: each step once, the answer once, one order.completed event.
    const history = await db('SELECT kind, node_id FROM order_timeline WHERE order_id = $1 ORDER BY chunk_id, pos', [orderId]);
    expect(history.map((r) => `${r.kind}${r.node_id ? ` ${r.node_id}` : ''}`)).toEqual([
      'order.started',
      'node.succeeded start',
      'node.call call',
      'node.answer call',
      'node.succeeded call',
      'order.completed',
    ]);
    const events = await db('SELECT event FROM outbox WHERE order_id = $1', [orderId]);
    expect(events).toEqual([{ event: 'order.completed' }]);

    // Nothing else arrives later: the call's timer is retired, so the next sweep repeats nothing.
    expect((await service.call('POST', '/api/v1/test/clock', { advanceMs: 600_000 })).status).toBe(200);
    expect(receiver.on('/charge')).toHaveLength(2);
    await service.terminate();
  });
});

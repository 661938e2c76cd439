// Proves issue 33's crash rule for a held step's retry: a SIGKILL between the retry's request and its recorded answer repeats
// the request after restart with the same Idempotency-Key (the key of the step's run, which the hold kept), and one result is recorded.
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

describe('held step retry crash (child process)', () => {
  it('SIGKILL between the retry\'s request and its recorded answer: after restart it is repeated with the same key and recorded once', async () => {
    database = await createTestDatabase();
    const db = dbProbe(() => database!.url);
    // The gateway is down (503: the step holds), then the retry's request gets no answer (the crash), then it is back.
    rx = await startScriptedReceiver();
    rx.script('/charge', (k) => (k === 1 ? { status: 503 } : k === 2 ? 'hang' : { status: 200, body: { chargeId: 'ch_1' } }));
    const receiver = rx;
    svc = new ServiceProcess({ env: { DATABASE_URL: database.url, REDIS_URL: undefined, OUTBOUND_ALLOW_LOOPBACK: '1' } });
    const service = svc;
    await service.start();

    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'call', type: 'http.call', params: { url: `${receiver.url}/charge`, timeout: '5s', retry: { attempts: 0, backoff: '1s' }, onFailure: 'hold' } },
        { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [
        { from: 'start', to: 'call' },
        { from: 'call', to: 'done' },
      ],
    };
    expect((await service.call('PUT', '/api/v1/flows/held-charge', { name: 'Held charge', graph })).body.problems).toEqual([]);
    expect((await service.call('POST', '/api/v1/flows/held-charge/publish')).status).toBe(200);
    const started = await service.call('POST', '/api/v1/orders', startBody('held-charge'));
    expect(started.status, started.text).toBe(201);
    const orderId: string = started.body.orderId;
    await until('the hold', async () => ((await service.call('GET', `/api/v1/orders/${orderId}`)).body.holds ?? []).length === 1);

    const retried = await service.call('POST', `/api/v1/orders/${orderId}/holds/call`, { action: 'retry' });
    expect(retried.status, retried.text).toBe(200);
    // The retry's request is out (the receiver holds it): kill the whole process group before any answer is recorded.
    await until('the retry\'s request', async () => receiver.on('/charge').length === 2);
    await service.kill('group');

    const key = receiver.on('/charge')[0].headers['idempotency-key'];
    expect(receiver.on('/charge')[1].headers['idempotency-key']).toBe(key);
    expect(await db('SELECT attempt, status, idempotency_key FROM order_calls WHERE order_id = $1 ORDER BY attempt', [orderId])).toEqual([
      { attempt: 1, status: 'answered', idempotency_key: key },
      { attempt: 2, status: 'pending', idempotency_key: key },
    ]);
    expect(await db('SELECT number, status FROM order_holds WHERE order_id = $1', [orderId])).toEqual([{ number: 1, status: 'retried' }]);

    // Restart on the same database and move the test clock past the lease (timeout 5 s + 5 s margin): the request is made again.
    await service.start();
    expect((await service.call('POST', '/api/v1/test/clock', { advanceMs: 60_000 })).status).toBe(200);
    const done = await until('the order completed', async () => {
      const res = await service.call('GET', `/api/v1/orders/${orderId}`);
      return res.status === 200 && res.body.status === 'completed' ? res.body : null;
    });
    const tries = receiver.on('/charge');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.headers['idempotency-key']))).toEqual(new Set([key]));
    expect(done.nodes.call).toMatchObject({ status: 'succeeded', runs: 1, attempt: 2, output: { status: 200, body: { chargeId: 'ch_1' }, attempts: 2 } });
    expect(await db('SELECT attempt, status FROM order_calls WHERE order_id = $1 ORDER BY attempt', [orderId])).toEqual([
      { attempt: 1, status: 'answered' },
      { attempt: 2, status: 'answered' },
    ]);
    const history = await db('SELECT kind, node_id FROM order_timeline WHERE order_id = $1 ORDER BY chunk_id, pos', [orderId]);
    expect(history.map((r) => `${r.kind}${r.node_id ? ` ${r.node_id}` : ''}`)).toEqual([
      'order.started',
      'node.succeeded start',
      'node.call call',
      'node.answer call',
      'node.failed call',
      'node.held call',
      'node.hold_retried call',
      'node.call call',
      'node.answer call',
      'node.succeeded call',
      'order.completed',
    ]);
    expect((await db('SELECT event FROM outbox WHERE order_id = $1 ORDER BY created_at', [orderId])).map((r) => r.event)).toEqual(['order.held', 'order.completed']);

    // Nothing else arrives later: the call's timer is retired.
    expect((await service.call('POST', '/api/v1/test/clock', { advanceMs: 600_000 })).status).toBe(200);
    expect(receiver.on('/charge')).toHaveLength(3);
    await service.terminate();
  });
});

// Proves issue 20's crash rule for external steps: a SIGKILL between an http.call's request and its recorded answer repeats the call after restart with the same Idempotency-Key, and the order's effects are recorded once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { ServiceProcess } from './support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';
import { startBody } from '../integration/orders/orders-support.js';

interface Received {
  path: string;
  idempotencyKey: string;
  body: unknown;
}

/** A receiver that records every request and answers per path as `reply(n)` says (n counts requests on that path from 1). */
async function startReceiver(reply: (path: string, n: number) => { status: number; body: unknown } | 'hang') {
  const received: Received[] = [];
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ path, idempotencyKey: String(req.headers['idempotency-key'] ?? ''), body: raw ? JSON.parse(raw) : null });
      const answer = reply(path, received.filter((r) => r.path === path).length);
      if (answer === 'hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
      } else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    on: (path: string) => received.filter((r) => r.path === path),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

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
let rx: Awaited<ReturnType<typeof startReceiver>> | null = null;
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
    rx = await startReceiver((path, k) => {
      if (path !== '/charge') return { status: 404, body: null };
      return k === 1 ? 'hang' : { status: 200, body: { chargeId: 'ch_1' } };
    });
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
    expect(callsAfterCrash).toEqual([{ status: 'pending', attempt: 1, idempotency_key: receiver.on('/charge')[0].idempotencyKey }]);
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
    expect(tries[0].idempotencyKey).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(tries[1].idempotencyKey).toBe(tries[0].idempotencyKey);
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
    const history = await db('SELECT kind, node_id FROM order_timeline WHERE order_id = $1 ORDER BY id', [orderId]);
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

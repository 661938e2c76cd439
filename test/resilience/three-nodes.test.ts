// Several nodes (issue "Operability"): three services on one PostgreSQL and one Redis share the load; one is SIGKILLed
// mid-load and the other two finish every order exactly once (one authorization, one capture, each step run once).
import { afterAll, describe, expect, it } from 'vitest';
import { dbProbe } from './support/db-probe.js';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { redisServerAvailable, startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { SIZES } from './support/resilience-size.js';
import { ServiceProcess, type Reply } from './support/service-process.js';

const ORDERS = SIZES.threeNodes.orders;
const FLOW = {
  name: 'Three nodes',
  graph: {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'price', type: 'commerce.price' },
      { id: 'authorize', type: 'commerce.authorize_payment' },
      // A durable timer per order: whichever node is alive when it comes due must fire it.
      { id: 'settle', type: 'wait.delay', params: { duration: '2s' } },
      { id: 'capture', type: 'commerce.capture_payment' },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
    ],
    edges: [
      { from: 'start', to: 'price' },
      { from: 'price', to: 'authorize' },
      { from: 'authorize', to: 'settle' },
      { from: 'settle', to: 'capture' },
      { from: 'capture', to: 'done' },
    ],
  },
};

let pg: PrivatePostgres | null = null;
let redis: PrivateRedis | null = null;
const nodes: ServiceProcess[] = [];
afterAll(async () => {
  for (const node of nodes) await node.close();
  await redis?.stop();
  await pg?.close();
});

describe(`three nodes on one PostgreSQL and Redis (${SIZES.form} form: ${ORDERS} orders)`, () => {
  it.skipIf(!redisServerAvailable())('one node SIGKILLed mid-load: the other two complete every order exactly once', async () => {
    pg = await startPrivatePostgres();
    redis = await startPrivateRedis();
    const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url, TEST_CLOCK: undefined };
    // Started one after another: the first migrates (under the advisory lock) and loads the workspace.
    for (let i = 0; i < 3; i++) {
      const node = new ServiceProcess({ env });
      nodes.push(node);
      await node.start();
    }
    const db = dbProbe(() => pg!.url);
    expect((await nodes[0].call('PUT', '/api/v1/flows/three-nodes', FLOW)).status).toBe(200);
    expect((await nodes[0].call('POST', '/api/v1/flows/three-nodes/publish')).status).toBe(200);

    // Round robin over the live nodes; a request the victim never answered goes again, same key, to another node.
    const keys = Array.from({ length: ORDERS }, (_, i) => `three-nodes-${i}`);
    const answers = new Map<string, Reply>();
    const body = (i: number) => ({ flowId: 'three-nodes', input: { model: 'b2c', title: `three nodes ${i}`, lines: [{ sku: 'MUG-1', qty: 1 + (i % 3) }] } });
    const startOn = (node: ServiceProcess, i: number) => node.call('POST', '/api/v1/orders', body(i), { headers: { 'idempotency-key': keys[i] } });
    const victim = nodes[2];
    let killed = false;
    /** Orders the victim accepted before it died: their timers were its to fire. */
    const onVictim: string[] = [];
    await Promise.all(
      keys.map(async (key, i) => {
        // Staggered so the kill lands mid-load, with orders authorized, waiting on their timers and still starting.
        await new Promise((r) => setTimeout(r, i * 40));
        if (i === Math.floor(ORDERS / 2) && !killed) {
          killed = true;
          await victim.kill('service');
        }
        const node = nodes[i % 3];
        let reply = node.running ? await startOn(node, i) : ({ status: 0 } as Reply);
        if (node === victim && reply.status === 201) onVictim.push(reply.body.orderId);
        if (reply.status === 0 || reply.status >= 500) reply = await startOn(nodes[i % 2], i);
        answers.set(key, reply);
      }),
    );
    expect([...answers.values()].filter((r) => r.status !== 201 && r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    const ids = [...new Set([...answers.values()].map((r) => r.body.orderId as string))];
    expect(onVictim.length).toBeGreaterThan(0);
    expect(ids).toHaveLength(ORDERS);

    // Every order finishes on the two survivors: the victim's commands and timers are taken over.
    const deadline = Date.now() + 120_000;
    let open = ORDERS;
    while (Date.now() < deadline) {
      const [row] = await db<{ open: number }>("SELECT count(*)::int AS open FROM orders WHERE id = ANY($1) AND status <> 'completed'", [ids]);
      open = row.open;
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(open).toBe(0);

    // Exactly once in effect: one authorization and one capture per order, each step recorded as run once.
    const [effects] = await db<{ auths: number; captures: number; orders_with_one_each: number }>(
      `SELECT (SELECT count(*)::int FROM payment_authorizations WHERE order_id = ANY($1)) AS auths,
              (SELECT count(*)::int FROM payment_charges WHERE order_id = ANY($1) AND kind = 'capture') AS captures,
              (SELECT count(*)::int FROM orders o WHERE o.id = ANY($1)
                 AND (SELECT count(*) FROM payment_authorizations a WHERE a.order_id = o.id) = 1
                 AND (SELECT count(*) FROM payment_charges c WHERE c.order_id = o.id AND c.kind = 'capture') = 1) AS orders_with_one_each`,
      [ids],
    );
    expect(effects).toEqual({ auths: ORDERS, captures: ORDERS, orders_with_one_each: ORDERS });
    const reruns = await db<{ order_id: string; node_id: string; runs: number }>(
      'SELECT order_id, node_id, runs FROM order_nodes WHERE order_id = ANY($1) AND runs <> 1',
      [ids],
    );
    expect(reruns).toEqual([]);
    const [completions] = await db<{ n: number }>(
      "SELECT count(*)::int AS n FROM order_timeline WHERE order_id = ANY($1) AND kind = 'order.completed'",
      [ids],
    );
    expect(completions.n).toBe(ORDERS);
    const [events] = await db<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE order_id = ANY($1) AND event = 'order.completed'", [ids]);
    expect(events.n).toBe(ORDERS);
    // The survivors answer; the victim is down.
    for (const node of nodes.slice(0, 2)) expect((await node.call('GET', '/health/deep')).status).toBe(200);
  });
});

// Outbound webhooks against a real local receiver (OUTBOUND_ALLOW_LOOPBACK=1): subscriptions, signature over the raw
// body, headers and body, retries on the test clock, timeout, ids (spec "Webhook subscriptions", "Delivery format",
// "Outbound delivery statuses"; contract sections 6 and 10).
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { e, eventually, graphs, n, publishFlow, startBody, startOrdersService, tokenFor } from './orders-support.js';
import { startReceiver } from './webhook-receiver.js';

const TIMEOUT_MS = 400;
let t: TestService;
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) } });
  rx = await startReceiver();
  await publishFlow(t, 'emitting', graphs.emitting);
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'periodic', {
    nodes: [
      n('start', 'trigger.api'),
      n('loop', 'logic.loop', { maxPasses: 2 }),
      n('charge', 'test.effect', { emit: 'order.paid' }),
      n('next', 'wait.event', { event: 'next.period' }),
      n('done', 'end', { outcome: 'completed' }),
    ],
    edges: [e('start', 'loop'), e('loop', 'charge', 'next'), e('loop', 'done', 'exhausted'), e('charge', 'next'), e('next', 'loop', 'received'), e('next', 'done', 'timeout')],
  });
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});
// Each test starts with no subscriptions (a failed test must not leave one behind for the next).
afterEach(async () => {
  const { subscriptions } = (await t.call('GET', '/api/v1/webhook-subscriptions')).body;
  for (const s of subscriptions) await t.call('DELETE', `/api/v1/webhook-subscriptions/${s.id}`);
});

const subscribe = async (path: string, events?: string[]) => {
  const res = await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}${path}`, ...(events ? { events } : {}) });
  if (res.status !== 201) throw new Error(res.text);
  return res.body as { subscription: { id: string; url: string; events: string[] }; secret: string };
};
const unsubscribe = (id: string) => t.call('DELETE', `/api/v1/webhook-subscriptions/${id}`);
const deliveries = async (subId: string) => (await t.call('GET', `/api/v1/webhook-subscriptions/${subId}/deliveries`)).body.deliveries as any[];
const startOrder = async (flowId: string, input: Record<string, unknown> = {}) => (await t.call('POST', '/api/v1/orders', startBody(flowId, input))).body.orderId as string;
const serviceNow = () => t.service.ctx.clock.now();

describe('subscriptions', () => {
  it('subscribe returns the subscription and a whsec_ secret once; list and read never show it', async () => {
    const res = await t.call('POST', '/api/v1/webhook-subscriptions', { url: 'https://hooks.example.com/orders' });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    expect(res.body.subscription).toEqual({ id: expect.stringMatching(/^whs_/), url: 'https://hooks.example.com/orders', events: ['*'], createdBy: 'api', createdAt: expect.any(Number) });
    const list = await t.call('GET', '/api/v1/webhook-subscriptions');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(res.body.secret);
    expect(list.body.subscriptions.find((s: { id: string }) => s.id === res.body.subscription.id)).toEqual(res.body.subscription);
    const { rows } = await t.service.ctx.db.query('SELECT secret_sealed FROM webhook_subscriptions WHERE id = $1', [res.body.subscription.id]);
    expect(rows[0].secret_sealed).not.toContain(res.body.secret.slice(6)); // sealed at rest
    expect((await unsubscribe(res.body.subscription.id)).body).toEqual({ ok: true });
  });

  it('url must be https; plain http only for localhost, 127.0.0.1 and [::1]; events known or ["*"]; else 400 with issues', async () => {
    const bad: unknown[] = [
      { url: 'http://hooks.example.com/x' },
      { url: 'http://10.0.0.1/x' },
      { url: 'ftp://hooks.example.com/x' },
      { url: 'not a url' },
      { url: 'https://user:pw@hooks.example.com/x' },
      { url: 'https://hooks.example.com/x', events: ['order.exploded'] },
      { url: 'https://hooks.example.com/x', events: [] },
      { url: 'https://hooks.example.com/x', events: ['*', 'order.paid'] },
      { url: 'https://hooks.example.com/x', secret: 'mine' },
    ];
    for (const body of bad) {
      const res = await t.call('POST', '/api/v1/webhook-subscriptions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    for (const url of ['http://localhost:9/x', 'http://127.0.0.1:9/x', 'http://[::1]:9/x', 'https://hooks.example.com/y']) {
      const res = await t.call('POST', '/api/v1/webhook-subscriptions', { url, events: ['order.paid', 'order.failed'] });
      expect(res.status, url).toBe(201);
      await unsubscribe(res.body.subscription.id);
    }
  });

  it('delete is 404 when absent; deliveries of an unknown subscription 404; operator only', async () => {
    const { subscription } = await subscribe('/ok');
    expect((await unsubscribe(subscription.id)).status).toBe(200);
    expect((await unsubscribe(subscription.id)).status).toBe(404);
    expect((await t.call('GET', `/api/v1/webhook-subscriptions/${subscription.id}/deliveries`)).status).toBe(404);
    const approver = await tokenFor(t, 'approver');
    expect((await t.call('GET', '/api/v1/webhook-subscriptions', undefined, { token: approver })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/webhook-subscriptions', { url: 'https://a.example.com' }, { token: approver })).status).toBe(403);
  });
});

describe('delivery', () => {
  it('POSTs the signed body with the spec headers; the signature verifies over the raw body; delivered on 2xx', async () => {
    const { subscription, secret } = await subscribe('/ok', ['order.paid', 'order.completed']);
    const orderId = await startOrder('emitting', { title: 'Hooked', currency: 'EUR' });
    const got = await eventually(async () => {
      const mine = rx.on('/ok').filter((r) => r.body?.orderId === orderId);
      return mine.length === 2 ? mine : null;
    }, 10_000, 'two deliveries');
    expect(got.map((r) => r.body.event)).toEqual(['order.paid', 'order.completed']); // not order.shipped
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-service-event']).toBe(r.body.event);
      expect(r.headers['x-service-delivery']).toBe(r.body.id);
      const signature = String(r.headers['x-service-signature']);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(secret, signature, r.raw, serviceNow())).toBe(true);
      expect(verifySignature('whsec_other', signature, r.raw, serviceNow())).toBe(false);
      expect(verifySignature(secret, signature, Buffer.concat([r.raw, Buffer.from(' ')]), serviceNow())).toBe(false);
      expect(Object.keys(r.body).sort()).toEqual(['data', 'event', 'id', 'occurredAt', 'orderId']);
      expect(r.body.occurredAt).toBeTypeOf('number');
      expect(r.body.data.order).toEqual({
        id: orderId, model: 'b2c', channel: 'api', externalId: null, title: 'Hooked', customerId: null, currency: 'EUR',
        subtotal: 25, tax: 0, total: 25, fxRate: 0.92, baseTotal: 27.17,
      });
    }
    expect(got[0].body.data.node).toEqual({ id: 'pay', type: 'test.effect', output: { did: 'pay', attempt: 1 } });
    expect(got[1].body.data).toMatchObject({ outcome: 'completed', reason: null });
    const list = await eventually(async () => {
      const d = await deliveries(subscription.id);
      return d.length === 2 && d.every((x) => x.status === 'delivered') ? d : null;
    });
    expect(list.map((d) => d.event)).toEqual(['order.completed', 'order.paid']); // newest first
    expect(list[0]).toMatchObject({ id: got[1].body.id, orderId, status: 'delivered', attempts: 1, responseStatus: 200, lastError: null, payload: got[1].body });
    expect(list[0].deliveredAt).toBeTypeOf('number');
    await unsubscribe(subscription.id);
  });

  it('a subscription to ["*"] gets every event of an order, in order', async () => {
    const { subscription } = await subscribe('/created');
    const orderId = await startOrder('emitting');
    const got = await eventually(async () => {
      const mine = rx.on('/created').filter((r) => r.body?.orderId === orderId);
      return mine.length === 3 ? mine : null;
    });
    expect(got.map((r) => r.body.event)).toEqual(['order.paid', 'order.shipped', 'order.completed']);
    expect(new Set(got.map((r) => r.body.id)).size).toBe(3);
    await unsubscribe(subscription.id);
  });

  it('a subscription to ["*"] gets every event of a built-in marketplace order, in the order they happened', async () => {
    const file = JSON.parse(readFileSync(new URL('../../../machines/tpl-marketplace-order.json', import.meta.url), 'utf8'));
    await publishFlow(t, 'tpl-marketplace-order', file.graph, { name: file.name });
    const { subscription } = await subscribe('/created');
    const start = await t.call('POST', '/api/v1/orders', {
      flowId: 'tpl-marketplace-order',
      input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }, { sku: 'MUG-1', qty: 1 }] },
    });
    expect(start.status, start.text).toBe(201);
    const orderId = start.body.orderId as string;
    for (const sellerId of ['seller_acme', 'seller_bolt'])
      expect((await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'seller.responded', payload: { sellerId, decision: 'accepted' } })).body.delivered).toBe(true);
    await t.advance(15 * 86_400_000); // past the 14-day return window: payout, then completed
    expect((await t.call('GET', `/api/v1/orders/${orderId}`)).body.status).toBe('completed');
    const { rows } = await t.service.ctx.db.query('SELECT event FROM outbox WHERE order_id = $1 ORDER BY seq', [orderId]);
    const written = rows.map((r) => r.event);
    expect(written).toEqual(expect.arrayContaining(['order.shipped', 'order.paid', 'order.payout_scheduled', 'order.completed']));
    const got = await eventually(async () => {
      const mine = rx.on('/created').filter((r) => r.body?.orderId === orderId);
      return mine.length === written.length ? mine : null;
    });
    expect(got.map((r) => r.body.event)).toEqual(written);
    expect(got.at(-1)!.body.data).toMatchObject({ outcome: 'completed', order: { id: orderId, currency: 'USD', fxRate: 1 } });
    await unsubscribe(subscription.id);
  });

  it('a repeated event (order.paid each period) gets a new id per occurrence', async () => {
    const { subscription } = await subscribe('/ok', ['order.paid']);
    const orderId = await startOrder('periodic');
    await eventually(async () => rx.on('/ok').filter((r) => r.body?.orderId === orderId).length === 1);
    expect((await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'next.period' })).body.delivered).toBe(true);
    const got = await eventually(async () => {
      const mine = rx.on('/ok').filter((r) => r.body?.orderId === orderId);
      return mine.length === 2 ? mine : null;
    });
    expect(got.map((r) => r.body.event)).toEqual(['order.paid', 'order.paid']);
    expect(got[0].body.id).not.toBe(got[1].body.id);
    expect(got[0].headers['x-service-delivery']).not.toBe(got[1].headers['x-service-delivery']);
    await unsubscribe(subscription.id);
  });

  it('retries 10, 20, 40, 80 and 160 s after each failure on the test clock, keeps its id, then failed; the order is unaffected', async () => {
    const { subscription } = await subscribe('/fail', ['order.completed']);
    const orderId = await startOrder('emitting');
    const attempts = () => rx.on('/fail').filter((r) => r.body?.orderId === orderId);
    let d = await eventually(async () => {
      const x = (await deliveries(subscription.id))[0];
      return x?.lastError ? x : null;
    }, 10_000, 'the first attempt recorded');
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, lastError: 'HTTP 500' });
    for (const [i, delay] of [10_000, 20_000, 40_000, 80_000, 160_000].entries()) {
      await t.advance(delay - 1_000);
      expect(attempts(), `before retry ${i + 1}`).toHaveLength(i + 1);
      await t.advance(1_000);
      expect(attempts(), `retry ${i + 1}`).toHaveLength(i + 2); // made before the clock call returned
    }
    d = (await deliveries(subscription.id))[0];
    expect(d).toMatchObject({ status: 'failed', attempts: 6, responseStatus: 500, lastError: 'HTTP 500', deliveredAt: null });
    const got = attempts();
    expect(new Set(got.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([d.id]));
    const ts = got.map((r) => Number(/t=(\d+)/.exec(String(r.headers['x-service-signature']))![1]));
    const gaps = ts.slice(1).map((x, i) => x - ts[i]);
    gaps.forEach((gap, i) => expect(Math.abs(gap - [10, 20, 40, 80, 160][i]), `gap ${i}: ${gaps}`).toBeLessThanOrEqual(1));
    await t.advance(600_000);
    expect(attempts()).toHaveLength(6);
    const order = (await t.call('GET', `/api/v1/orders/${orderId}`)).body;
    expect(order.status).toBe('completed');
    expect(order.timeline.some((x: { message: string }) => /webhook/i.test(x.message))).toBe(false);
    await unsubscribe(subscription.id);
  });

  it('a failed attempt followed by a 2xx retry ends delivered', async () => {
    const { subscription } = await subscribe('/flaky', ['order.completed']);
    const orderId = await startOrder('emitting');
    await eventually(async () => (await deliveries(subscription.id))[0]?.lastError);
    await t.advance(10_000);
    const d = (await deliveries(subscription.id))[0];
    expect(d).toMatchObject({ orderId, status: 'delivered', attempts: 2, responseStatus: 200, lastError: null });
  });

  it('a first attempt lost in a crash (committed delivery, no attempt) is made by its durable guard timer', async () => {
    const { subscription } = await subscribe('/ok', ['order.completed']);
    const db = t.service.ctx.db;
    const now = serviceNow();
    const id = 'whd_crash_test_0000000000000000000';
    const body = JSON.stringify({ id, event: 'order.completed', occurredAt: now, orderId: 'ord_crashed', data: { order: {}, outcome: 'completed', reason: null } });
    await db.query(
      `INSERT INTO webhook_deliveries (id, subscription_id, outbox_id, order_id, event, body, status, created_at, updated_at)
       VALUES ($1, $2, 'outbox_crash', 'ord_crashed', 'order.completed', $3, 'pending', $4, $4)`,
      [id, subscription.id, body, now],
    );
    await db.query(
      `INSERT INTO timers (id, kind, due_at, payload, created_at) VALUES ($1, 'webhook.delivery', $2, $3, $4)`,
      [`${id}:attempt:1`, now + TIMEOUT_MS + 5_000, JSON.stringify({ deliveryId: id, attempt: 1 }), now],
    );
    await t.advance(TIMEOUT_MS + 5_000);
    const got = rx.on('/ok').filter((r) => r.body?.id === id);
    expect(got).toHaveLength(1);
    expect(got[0].raw.toString()).toBe(body);
    expect((await deliveries(subscription.id))[0]).toMatchObject({ id, status: 'delivered', attempts: 1 });
  });

  it('a receiver that never answers is cut at OUTBOUND_TIMEOUT_MS and retried later', async () => {
    const { subscription } = await subscribe('/hang', ['order.completed']);
    const orderId = await startOrder('emitting');
    const started = Date.now();
    const d = await eventually(async () => {
      const x = (await deliveries(subscription.id))[0];
      return x?.lastError ? x : null;
    });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3_000);
    expect(d).toMatchObject({ orderId, status: 'pending', attempts: 1, responseStatus: null, lastError: `No answer within ${TIMEOUT_MS} ms` });
    expect(rx.on('/hang').filter((r) => r.body?.orderId === orderId)).toHaveLength(1);
    await unsubscribe(subscription.id);
  });

  it('a redirect is not followed (a failure)', async () => {
    const { subscription } = await subscribe('/redirect', ['order.completed']);
    const orderId = await startOrder('emitting');
    const d = await eventually(async () => {
      const x = (await deliveries(subscription.id))[0];
      return x?.lastError ? x : null;
    });
    expect(d).toMatchObject({ status: 'pending', responseStatus: 302, lastError: 'Redirect not followed (HTTP 302)' });
    expect(rx.on('/ok').filter((r) => r.body?.orderId === orderId)).toHaveLength(0);
    await unsubscribe(subscription.id);
  });

  it('deleting a subscription stops its pending retries', async () => {
    const { subscription } = await subscribe('/fail', ['order.completed']);
    const orderId = await startOrder('emitting');
    await eventually(async () => rx.on('/fail').filter((r) => r.body?.orderId === orderId).length === 1);
    await eventually(async () => (await deliveries(subscription.id))[0]?.lastError);
    await unsubscribe(subscription.id);
    await t.advance(400_000);
    expect(rx.on('/fail').filter((r) => r.body?.orderId === orderId)).toHaveLength(1);
  });

  it('events that happen during a test-clock advance are attempted before the call returns (contract 6)', async () => {
    const { subscription } = await subscribe('/ok', ['order.cancelled']);
    const orderId = await startOrder('wait-flow'); // waits 3 days for payment, then ends cancelled
    await t.advance(3 * 86_400_000 + 1_000);
    const got = rx.on('/ok').filter((r) => r.body?.orderId === orderId);
    expect(got.map((r) => r.body.event)).toEqual(['order.cancelled']);
    expect(got[0].body.data).toMatchObject({ outcome: 'cancelled', reason: 'No payment' });
    await unsubscribe(subscription.id);
  });

  it('a cancel sends order.cancelled with { order, outcome, reason }', async () => {
    const { subscription } = await subscribe('/ok', ['order.cancelled']);
    const orderId = await startOrder('wait-flow');
    await t.call('POST', `/api/v1/orders/${orderId}/cancel`, { reason: 'Customer changed their mind' });
    const got = await eventually(async () => rx.on('/ok').find((r) => r.body?.orderId === orderId));
    expect(got.body.data).toEqual({ order: expect.objectContaining({ id: orderId }), outcome: 'cancelled', reason: 'Customer changed their mind' });
    await unsubscribe(subscription.id);
  });

  it('the deliveries list holds the latest 50, newest first', async () => {
    const { subscription } = await subscribe('/ok', ['order.paid']);
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) ids.push(await startOrder('emitting'));
    const list = await eventually(async () => {
      const d = await deliveries(subscription.id);
      return d.length === 50 && d.every((x) => x.status === 'delivered') && d[0].orderId === ids[54] ? d : null;
    }, 20_000);
    expect(list.map((d) => d.orderId)).toEqual(ids.slice(5).reverse());
    await unsubscribe(subscription.id);
  });
});

describe('without OUTBOUND_ALLOW_LOOPBACK', () => {
  let plain: TestService;
  beforeAll(async () => {
    plain = await startOrdersService({ env: { OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) } });
    await publishFlow(plain, 'emitting', graphs.emitting);
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('a loopback URL is accepted at subscribe time but never reached', async () => {
    for (const url of [`${rx.url}/ok`, `${rx.url.replace('127.0.0.1', 'localhost')}/ok`, `https://localhost:${new URL(rx.url).port}/ok`]) {
      const sub = await plain.call('POST', '/api/v1/webhook-subscriptions', { url, events: ['order.paid'] });
      expect(sub.status).toBe(201);
      const orderId = (await plain.call('POST', '/api/v1/orders', startBody('emitting'))).body.orderId;
      const d = await eventually(async () => {
        const x = (await plain.call('GET', `/api/v1/webhook-subscriptions/${sub.body.subscription.id}/deliveries`)).body.deliveries[0];
        return x?.lastError ? x : null;
      });
      expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
      expect(d.lastError).toMatch(/never reached|loopback/);
      expect(rx.received.some((r) => r.body?.orderId === orderId)).toBe(false);
      await plain.call('DELETE', `/api/v1/webhook-subscriptions/${sub.body.subscription.id}`);
    }
  });
});

// POST /api/v1/webhooks/orders: body rules, scope, routing table, channel idempotency, meta.via and the webhook trigger
// (spec "Signed inbound orders route", "Order input", "Limits", "Errors"; contract section 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { count, createIntegration, graphs, publishFlow, signed, startChannelsService, type TestIntegration } from './channels-support.js';

const ORDERS = '/api/v1/webhooks/orders';

/** Workspace routes of this suite (the built-in ones are b2c:pos and d2c:pos -> tpl-pos-sale). */
const ORDER_ROUTES = {
  'b2b:email': 'route-b2b-email',
  'd2c:pos': 'route-d2c-pos',
  'b2c:*': 'route-b2c-any',
  'procurement:*': 'route-procurement-any',
  'b2b:manual': 'route-unpublished',
  'replenishment:*': 'route-missing',
};

let t: TestService;
let starter: TestIntegration;
let seq = 0;

beforeAll(async () => {
  t = await startChannelsService({ orderRoutes: ORDER_ROUTES });
  for (const id of ['route-b2b-email', 'route-d2c-pos', 'route-b2c-any', 'route-procurement-any', 'hook']) await publishFlow(t, id, graphs.webhookTrigger);
  // Saved, never published.
  await t.call('PUT', '/api/v1/flows/route-unpublished', { name: 'Unpublished', graph: graphs.webhookTrigger });
  starter = await createIntegration(t, { name: 'Order source', startOrders: true, flows: ['*'] });
});
afterAll(async () => {
  await t?.close();
});

const externalId = () => `ext-${++seq}-${Date.now()}`;
const body = (extra: Record<string, unknown> = {}) => ({
  model: 'b2c', channel: 'web', externalId: externalId(), lines: [{ sku: 'MUG-1', qty: 2, unitPrice: 12.5 }], ...extra,
});
const orderRow = async (orderId: string) => (await t.call('GET', `/api/v1/orders/${orderId}`)).body;

describe('body rules (400 with issues, nothing starts)', () => {
  const invalid: [string, Record<string, unknown>, string][] = [
    ['channel missing', { channel: undefined }, 'channel'],
    ['externalId missing', { externalId: undefined }, 'externalId'],
    ['externalId empty', { externalId: '' }, 'externalId'],
    ['externalId over 200', { externalId: 'x'.repeat(201) }, 'externalId'],
    ['model missing', { model: undefined }, 'model'],
    ['no line and no documentText', { lines: [] }, 'lines'],
    ['source over 60', { source: 's'.repeat(61) }, 'source'],
    ['shipTo string over 500', { shipTo: 'x'.repeat(501) }, 'shipTo'],
    ['shipTo latitude 91', { shipTo: { line1: '1 Main', city: 'X', postalCode: '1', country: 'US', latitude: 91, longitude: 0 } }, 'shipTo'],
    ['shipTo longitude -181', { shipTo: { line1: '1 Main', city: 'X', postalCode: '1', country: 'US', latitude: 0, longitude: -181 } }, 'shipTo'],
    ['shipTo object without postalCode', { shipTo: { line1: '1 Main', city: 'X', country: 'US' } }, 'shipTo'],
    ['line with locationId (not on this route)', { lines: [{ sku: 'MUG-1', qty: 1, locationId: 'loc_main' }] }, 'lines.0'],
    ['unknown channel', { channel: 'fax' }, 'channel'],
    ['unknown field', { flow: 'x' }, ''],
  ];
  for (const [what, patch, path] of invalid)
    it(what, async () => {
      const before = await count(t, 'orders');
      const payload: Record<string, unknown> = body(patch);
      for (const [k, v] of Object.entries(patch)) if (v === undefined) delete payload[k];
      const res = await signed(t, ORDERS, starter, payload);
      expect(res.status).toBe(400);
      expect(res.body.issues.some((i: { path: string }) => i.path.startsWith(path))).toBe(true);
      expect(await count(t, 'orders')).toBe(before);
    });

  it('a currency without an exchange rate is 400', async () => {
    const res = await signed(t, ORDERS, starter, body({ currency: 'CHF' }));
    expect(res.status).toBe(400);
  });

  it('the limits exactly, both shipTo forms, and documentText alone are accepted', async () => {
    const geo = { name: 'Ann', line1: '1 Main St', city: 'Reno', region: 'NV', postalCode: '89501', country: 'US', latitude: -90, longitude: 180 };
    expect((await signed(t, ORDERS, starter, body({ externalId: 'e'.repeat(200), source: 's'.repeat(60), shipTo: 'x'.repeat(500) }))).status).toBe(201);
    const structured = await signed(t, ORDERS, starter, body({ shipTo: geo }));
    expect(structured.status).toBe(201);
    expect((await orderRow(structured.body.orderId)).order.meta.shipTo).toEqual(geo);
    const doc = await signed(t, ORDERS, starter, body({ lines: undefined, documentText: 'PO 77: 3 x MUG-1' }));
    expect(doc.status).toBe(201);
    expect(await count(t, 'order_documents WHERE order_id = $1', [doc.body.orderId])).toBe(1);
  });

  it('401 for a bad signature before the body is looked at', async () => {
    const res = await signed(t, ORDERS, starter, { not: 'an order' }, { secret: 'whsec_wrong' });
    expect(res.status).toBe(401);
  });
});

describe('scope (403, nothing starts)', () => {
  it('needs startOrders: true', async () => {
    const events = await createIntegration(t, { name: 'events only', events: ['*'], flows: ['*'] });
    const res = await signed(t, ORDERS, events, body());
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/may not start orders/);
  });

  it('a channel-bound integration: every order must be on its channel', async () => {
    const pos = await createIntegration(t, { name: 'tills', startOrders: true, channel: 'pos' });
    const before = await count(t, 'orders');
    expect((await signed(t, ORDERS, pos, body({ channel: 'web' }))).status).toBe(403);
    expect(await count(t, 'orders')).toBe(before);
    expect((await signed(t, ORDERS, pos, body({ channel: 'pos', model: 'b2c' }))).status).toBe(201);
  });

  it('a body naming flowId needs it in flows (or [*]); without flowId it is routed regardless of flows', async () => {
    const limited = await createIntegration(t, { name: 'limited', startOrders: true, flows: ['hook'] });
    const none = await createIntegration(t, { name: 'no flows', startOrders: true });
    expect((await signed(t, ORDERS, limited, body({ flowId: 'route-b2c-any' }))).status).toBe(403);
    expect((await signed(t, ORDERS, none, body({ flowId: 'hook' }))).status).toBe(403);
    expect((await signed(t, ORDERS, limited, body({ flowId: 'hook' }))).body.flowId).toBe('hook');
    expect((await signed(t, ORDERS, none, body())).body.flowId).toBe('route-b2c-any');
  });
});

describe('routing: body flowId, then model:channel, then model:*, then the model default', () => {
  const table: [string, Record<string, unknown>, string][] = [
    ['(1) the body flowId wins over every route', { model: 'b2b', channel: 'email', flowId: 'hook' }, 'hook'],
    ['(2) workspace model:channel', { model: 'b2b', channel: 'email' }, 'route-b2b-email'],
    ['(2) built-in b2c:pos beats the workspace b2c:* (step 2 before step 3)', { model: 'b2c', channel: 'pos' }, 'tpl-pos-sale'],
    ['(2) the workspace overrides the built-in key d2c:pos', { model: 'd2c', channel: 'pos' }, 'route-d2c-pos'],
    ['(3) workspace b2c:*', { model: 'b2c', channel: 'mobile' }, 'route-b2c-any'],
    ['(3) workspace procurement:*', { model: 'procurement', channel: 'email' }, 'route-procurement-any'],
    ['(4) b2b default (no route for b2b:web)', { model: 'b2b', channel: 'web' }, 'tpl-b2b-order'],
    ['(4) d2c default (d2c:web)', { model: 'd2c', channel: 'web' }, 'tpl-omnichannel-order'],
    ['(4) marketplace default', { model: 'marketplace', channel: 'marketplace' }, 'tpl-marketplace-order'],
    ['(4) subscription default', { model: 'subscription', channel: 'web' }, 'tpl-subscription'],
  ];
  for (const [what, patch, flowId] of table)
    it(what, async () => {
      const res = await signed(t, ORDERS, starter, body(patch));
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ orderId: expect.stringMatching(/^ord_/), flowId });
      expect((await orderRow(res.body.orderId)).order.flowId).toBe(flowId);
    });

  it('409 when the routed flow has no published version (or does not exist); nothing starts; a retry after publishing starts it', async () => {
    const before = await count(t, 'orders');
    const unpublished = body({ model: 'b2b', channel: 'manual' });
    const res = await signed(t, ORDERS, starter, unpublished);
    expect(res.status).toBe(409);
    expect((await signed(t, ORDERS, starter, body({ model: 'replenishment', channel: 'schedule' }))).status).toBe(409);
    expect(await count(t, 'orders')).toBe(before);
    expect(await count(t, "idempotency_keys WHERE key = $1", [`order:manual:${unpublished.externalId}`])).toBe(0);
    await t.call('POST', '/api/v1/flows/route-unpublished/publish');
    const retry = await signed(t, ORDERS, starter, unpublished);
    expect(retry.status).toBe(201);
    expect(retry.body.flowId).toBe('route-unpublished');
  });
});

describe('routing: the model default of every model (workspace without routes)', () => {
  let plain: TestService;
  let src: TestIntegration;
  beforeAll(async () => {
    plain = await startChannelsService({ orderRoutes: {} });
    src = await createIntegration(plain, { startOrders: true });
  });
  afterAll(async () => {
    await plain?.close();
  });

  const defaults: [string, string][] = [
    ['b2b', 'tpl-b2b-order'],
    ['b2c', 'tpl-storefront-order'],
    ['d2c', 'tpl-omnichannel-order'],
    ['marketplace', 'tpl-marketplace-order'],
    ['subscription', 'tpl-subscription'],
    ['procurement', 'tpl-purchase-request'],
    ['replenishment', 'tpl-reorder'],
  ];
  for (const [model, flowId] of defaults)
    it(`${model} -> ${flowId}`, async () => {
      const res = await signed(plain, ORDERS, src, body({ model, channel: 'api' }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.flowId).toBe(flowId);
    });

  it('built-in b2c:pos and d2c:pos -> tpl-pos-sale', async () => {
    for (const model of ['b2c', 'd2c']) expect((await signed(plain, ORDERS, src, body({ model, channel: 'pos' }))).body.flowId).toBe('tpl-pos-sale');
  });
});

describe('idempotency: order:<channel>:<externalId> bound to the body sent', () => {
  it('the same body again is 200 { orderId, flowId, replayed: true }, property order ignored; one order', async () => {
    const first = body({ flowId: 'hook', title: 'Replay me' });
    const a = await signed(t, ORDERS, starter, first);
    expect(a.status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(first).reverse());
    const b = await signed(t, ORDERS, starter, reordered);
    expect(b.status).toBe(200);
    expect(b.body).toEqual({ orderId: a.body.orderId, flowId: 'hook', replayed: true });
    expect(await count(t, 'orders WHERE external_id = $1', [first.externalId])).toBe(1);
  });

  it('the same channel and externalId with different contents: 422, nothing starts', async () => {
    const first = body();
    await signed(t, ORDERS, starter, first);
    const before = await count(t, 'orders');
    const res = await signed(t, ORDERS, starter, { ...first, lines: [{ sku: 'MUG-1', qty: 3, unitPrice: 12.5 }] });
    expect(res.status).toBe(422);
    expect(await count(t, 'orders')).toBe(before);
  });

  it('the same externalId on another channel is another order', async () => {
    const first = body({ channel: 'web' });
    const a = await signed(t, ORDERS, starter, first);
    const b = await signed(t, ORDERS, starter, { ...first, channel: 'mobile' });
    expect(b.status).toBe(201);
    expect(b.body.orderId).not.toBe(a.body.orderId);
  });

  it('a replay answers 200 even after the flow was unpublished', async () => {
    await publishFlow(t, 'short-lived', graphs.webhookTrigger);
    const first = body({ flowId: 'short-lived' });
    const a = await signed(t, ORDERS, starter, first);
    expect(a.status).toBe(201);
    await t.service.ctx.db.query("UPDATE flows SET published_version = NULL WHERE id = 'short-lived'");
    const again = await signed(t, ORDERS, starter, first);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ orderId: a.body.orderId, flowId: 'short-lived', replayed: true });
    expect((await signed(t, ORDERS, starter, body({ flowId: 'short-lived' }))).status).toBe(409);
  });

  it('racing copies start one order (one 201, the rest 200 with the same id)', async () => {
    const first = body({ flowId: 'hook' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => signed(t, ORDERS, starter, first)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.orderId)).size).toBe(1);
    expect(await count(t, 'orders WHERE external_id = $1', [first.externalId])).toBe(1);
  });

  it('the key space is shared by integrations: another integration sending the same order replays it', async () => {
    const other = await createIntegration(t, { name: 'second source', startOrders: true, flows: ['*'] });
    const first = body({ flowId: 'hook' });
    const a = await signed(t, ORDERS, starter, first);
    const b = await signed(t, ORDERS, other, first);
    expect(b.status).toBe(200);
    expect(b.body.orderId).toBe(a.body.orderId);
  });
});

describe('what the order carries', () => {
  it('meta.via = webhook (set by the server), meta.source, meta.shipTo; channel and externalId on the order', async () => {
    const sent = body({ flowId: 'hook', source: 'kiosk', shipTo: '1 Main St, Reno', meta: { via: 'forged', note: 'kept' }, vars: { seeded: true } });
    const res = await signed(t, ORDERS, starter, sent);
    const s = await orderRow(res.body.orderId);
    expect(s.order).toMatchObject({ channel: 'web', externalId: sent.externalId, flowId: 'hook' });
    expect(s.order.meta).toEqual({ via: 'webhook', source: 'kiosk', shipTo: '1 Main St, Reno', note: 'kept' });
    expect(s.vars.seeded).toBe(true);
    const { rows } = await t.service.ctx.db.query('SELECT started_by FROM order_origins WHERE order_id = $1', [res.body.orderId]);
    expect(rows[0].started_by).toBe('integration:Order source');
  });

  it('webhook trigger: summary `<channel label> · <externalId>` plus `(<source>)` when it differs from the channel; output { channel, externalId, source }', async () => {
    const cases: [Record<string, unknown>, string, unknown][] = [
      [{ channel: 'pos', externalId: 'R-1001', source: 'till-3' }, 'POS · R-1001 (till-3)', 'till-3'],
      [{ channel: 'pos', externalId: 'R-1002', source: 'pos' }, 'POS · R-1002', 'pos'],
      [{ channel: 'edi', externalId: 'ACME:PO-9', model: 'b2b' }, 'EDI · ACME:PO-9', null],
    ];
    for (const [patch, summary, source] of cases) {
      const res = await signed(t, ORDERS, starter, body({ flowId: 'hook', ...patch }));
      const start = (await orderRow(res.body.orderId)).nodes.start;
      expect(start.type).toBe('trigger.webhook');
      expect(start.summary).toBe(summary);
      expect(start.output).toEqual({ channel: patch.channel, externalId: patch.externalId, source });
    }
  });
});

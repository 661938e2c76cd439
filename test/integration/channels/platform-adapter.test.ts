// POST /api/v1/channels/platform/orders: platform HMAC, topics, every shared payload mapped per the spec table,
// SKU-less lines, replays, 409 retries, 64-bit ids (spec "Storefront-platform adapter"; contract sections 3 and 10).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { demoWorkspacePath } from '../../../src/config/config.js';
import { platformHmac } from '../../../src/channels/storefront/platform-hmac.js';
import { count, graphs, PLATFORM_NAME, PLATFORM_SECRET, startChannelsService } from './channels-support.js';

const PLATFORM = '/api/v1/channels/platform/orders';
const FIXTURES = new URL('../../fixtures/shopify-orders-create/', import.meta.url);
const fixtureText = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');
const DERIVED_2023 = 'derived__shopify_docs_2023-07_orders_create.payload.json';
const DERIVED_2026 = 'derived__shopify_docs_2026-04_orders_create.payload.json';
const B2B_EXEMPLAR = 'gadget__exemplars_2025-04_orders_1__b2b_company_anonymized.json';

const demo = JSON.parse(readFileSync(demoWorkspacePath, 'utf8'));
const SHIPPING = { name: 'Steve Shipper', line1: '123 Shipping Street', city: 'Shippington', region: 'KY', postalCode: '40003', country: 'US' };

let t: TestService;
beforeAll(async () => {
  t = await startChannelsService({
    platform: { clientSecret: PLATFORM_SECRET, name: PLATFORM_NAME },
    customers: [...demo.customers, { id: 'cust_jon', email: 'Jon@Example.com', name: 'Jon' }],
    orderRoutes: { 'b2c:mobile': 'platform-mobile' },
  });
  await t.call('PUT', '/api/v1/flows/platform-mobile', { name: 'mobile', graph: graphs.webhookTrigger });
  await t.call('POST', '/api/v1/flows/platform-mobile/publish');
});
afterAll(async () => {
  await t?.close();
});

interface PostOptions {
  topic?: string | null;
  secret?: string;
  hmac?: string | null;
  path?: string;
  hmacHeader?: string;
  topicHeader?: string;
}

/** Posts raw bytes the way the platform does: HMAC of the exact bytes, topic header, no token. */
function post(raw: string, o: PostOptions = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const hmac = o.hmac !== undefined ? o.hmac : platformHmac(o.secret ?? PLATFORM_SECRET, raw);
  if (hmac !== null) headers[o.hmacHeader ?? 'x-platform-hmac-sha256'] = hmac;
  const topic = o.topic === undefined ? 'orders/create' : o.topic;
  if (topic !== null) headers[o.topicHeader ?? 'x-platform-topic'] = topic;
  return t.call('POST', o.path ?? PLATFORM, undefined, { token: null, raw, headers });
}

let seq = 0;
/** A small payload in the platform's shape. */
function payload(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    id: 5_000_000 + seq + Date.now() % 1_000_000,
    name: `#${1000 + seq}`,
    email: 'someone@example.net',
    source_name: 'web',
    currency: 'EUR',
    customer: { first_name: 'Ann', last_name: 'Lee' },
    line_items: [{ sku: 'MUG-1', title: 'Mug', quantity: 2, price: '12.50' }],
    ...overrides,
  };
}

const view = async (orderId: string) => (await t.call('GET', `/api/v1/orders/${orderId}`)).body;

describe('authentication and topics', () => {
  it('401 without the HMAC header, with a wrong secret, or with the HMAC of other bytes; nothing starts', async () => {
    const raw = JSON.stringify(payload());
    const before = await count(t, 'orders');
    expect((await post(raw, { hmac: null })).status).toBe(401);
    expect((await post(raw, { secret: 'another-secret' })).status).toBe(401);
    expect((await post(raw, { hmac: platformHmac(PLATFORM_SECRET, `${raw} `) })).status).toBe(401);
    expect((await post(raw, { hmac: platformHmac(PLATFORM_SECRET, raw).toUpperCase() })).status).toBe(401);
    expect(await count(t, 'orders')).toBe(before);
  });

  it('any topic but order-created: 200 { ignored: true, topic } and nothing starts; no topic is 400', async () => {
    const raw = JSON.stringify(payload());
    const before = await count(t, 'orders');
    for (const topic of ['orders/updated', 'orders/cancelled', 'app/uninstalled']) {
      const res = await post(raw, { topic });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ignored: true, topic });
    }
    expect((await post(raw, { topic: null })).status).toBe(400);
    expect(await count(t, 'orders')).toBe(before);
  });

  it("the platform's own path segment and header names work too; another segment is 404", async () => {
    const raw = JSON.stringify(payload());
    const own = await post(raw, { path: `/api/v1/channels/${PLATFORM_NAME}/orders`, hmacHeader: 'X-Shopify-Hmac-Sha256', topicHeader: 'X-Shopify-Topic' });
    expect(own.status).toBe(201);
    expect((await post(JSON.stringify(payload()), { path: '/api/v1/channels/woo/orders' })).status).toBe(404);
  });

  it('503 when the workspace has no platform client secret', async () => {
    const plain = await startChannelsService({});
    try {
      const raw = JSON.stringify(payload());
      const res = await plain.call('POST', PLATFORM, undefined, {
        token: null, raw, headers: { 'content-type': 'application/json', 'x-platform-hmac-sha256': platformHmac(PLATFORM_SECRET, raw), 'x-platform-topic': 'orders/create' },
      });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(/not enabled/);
    } finally {
      await plain.close();
    }
  });
});

describe('the shared payloads', () => {
  let docsOrderId: string;

  it('docs example 2023-07 (exact bytes): 201 and every field of the mapping table', async () => {
    const res = await post(fixtureText(DERIVED_2023));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ orderId: expect.stringMatching(/^ord_/), flowId: 'tpl-storefront-order' });
    docsOrderId = res.body.orderId;
    const { order } = await view(docsOrderId);
    expect(order).toMatchObject({
      model: 'b2c', // no company
      channel: 'web', // source_name web
      externalId: '820982911946154500', // id as written in this file (Gadget rounded it, see SOURCES.md)
      title: '#9999', // name
      customerId: 'cust_jon', // email jon@example.com matches Jon@Example.com
      contactEmail: 'jon@example.com',
      currency: 'USD',
      flowId: 'tpl-storefront-order',
    });
    expect(order.input.contact).toEqual({ email: 'jon@example.com', name: 'John Smith' });
    expect(order.input.lines).toEqual([
      { sku: 'IPOD2008PINK', name: 'IPod Nano - 8GB', qty: 1, unitPrice: 199 },
      { sku: 'IPOD2008PINK', name: 'IPod Nano - 8GB', qty: 1, unitPrice: 199 },
    ]);
    expect(order.meta).toEqual({ shopify: { id: '820982911946154500', name: '#9999' }, source: 'shopify', shipTo: SHIPPING, via: 'webhook' });
  });

  it('the same bytes again (a platform retry) replay the order: 200 { orderId, flowId, replayed: true }', async () => {
    const res = await post(fixtureText(DERIVED_2023));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ orderId: docsOrderId, flowId: 'tpl-storefront-order', replayed: true });
  });

  it('the gadget metadata files: the wrapper is not an order (400); its `response` member is the same order (200 replay)', async () => {
    for (const version of ['2023-07', '2026-04']) {
      const text = fixtureText(`gadget__metadatas_${version}_orders_create.json`);
      const wrapper = await post(text);
      expect(wrapper.status).toBe(400);
      expect(wrapper.body.error).toBe('Order id is missing');
      if (version === '2023-07') {
        const member = await post(JSON.stringify(JSON.parse(text).response));
        expect(member.status).toBe(200);
        expect(member.body.orderId).toBe(docsOrderId);
      }
    }
  });

  it('docs example 2026-04 (exact bytes): the same platform id with other contents is a 422', async () => {
    const before = await count(t, 'orders');
    const res = await post(fixtureText(DERIVED_2026));
    expect(res.status).toBe(422);
    expect(await count(t, 'orders')).toBe(before);
  });

  it('docs example 2026-04 with its own id: 201, five lines incl. bundle components, contact, shipTo, meta', async () => {
    const raw = fixtureText(DERIVED_2026).replace('"id": 820982911946154500', '"id": 820982911946154999');
    const res = await post(raw);
    expect(res.status, res.text).toBe(201);
    const { order } = await view(res.body.orderId);
    expect(order).toMatchObject({ model: 'b2c', channel: 'web', externalId: '820982911946154999', title: '#9999', customerId: 'cust_jon', currency: 'USD' });
    expect(order.input.lines).toEqual([
      { sku: 'SKU2006-001', name: 'Aviator sunglasses', qty: 1, unitPrice: 89.99 },
      { sku: 'LENS-PROTECT-2YR', name: 'Lens Protection Plan (2 Year)', qty: 1, unitPrice: 19.99 },
      { sku: 'CASE-LEATHER-PREM', name: 'Premium Leather Case', qty: 1, unitPrice: 24.99 },
      { sku: 'SKU2006-020', name: 'Mid-century lounger', qty: 1, unitPrice: 159.99 },
      { sku: 'SKU2006-035', name: 'Coffee table', qty: 1, unitPrice: 119.99 },
    ]);
    expect(order.input.contact).toEqual({ email: 'jon@example.com', name: 'John Smith' });
    expect(order.meta).toEqual({ shopify: { id: '820982911946154999', name: '#9999' }, source: 'shopify', shipTo: SHIPPING, via: 'webhook' });
  });

  it('the anonymised B2B exemplar: 400 through HTTP (placeholder values), nothing starts', async () => {
    const before = await count(t, 'orders');
    const res = await post(fixtureText(B2B_EXEMPLAR));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/price "example string" is not a number/);
    // With the price patched, `company` makes it b2b, but currency "example string" is still refused.
    const patched = JSON.parse(fixtureText(B2B_EXEMPLAR));
    patched.line_items[0].price = '123.00';
    const again = await post(JSON.stringify(patched));
    expect(again.status).toBe(400);
    expect(again.body.issues.map((i: { path: string }) => i.path)).toContain('currency');
    expect(await count(t, 'orders')).toBe(before);
  });
});

describe('mapping rules on synthetic payloads', () => {
  it('lines without a SKU (null and ""): 400 `Line items without a SKU…`, nothing starts, no key is taken', async () => {
    const before = await count(t, 'orders');
    const sent = payload({
      line_items: [
        { sku: 'MUG-1', title: 'Mug', quantity: 1, price: '12.50' },
        { sku: null, title: 'Gift wrap', quantity: 1, price: '2.00' },
        { sku: '', title: 'Engraving', quantity: 1, price: '5.00' },
      ],
    });
    const res = await post(JSON.stringify(sent));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Line items without a SKU/);
    expect(res.body.error).toContain('Gift wrap');
    expect(res.body.error).toContain('Engraving');
    expect(await count(t, 'orders')).toBe(before);
    expect(await count(t, "idempotency_keys WHERE key LIKE $1", [`order:web:${sent.id}`])).toBe(0);
  });

  it('a price that is not a number is 400', async () => {
    const res = await post(JSON.stringify(payload({ line_items: [{ sku: 'MUG-1', title: 'Mug', quantity: 1, price: 'free' }] })));
    expect(res.status).toBe(400);
  });

  it('channel from source_name: pos -> pos (routed to tpl-pos-sale), iphone/android -> mobile, else web; company -> b2b', async () => {
    const pos = await post(JSON.stringify(payload({ source_name: 'pos' })));
    expect(pos.body.flowId).toBe('tpl-pos-sale');
    expect((await view(pos.body.orderId)).order.channel).toBe('pos');
    for (const source of ['iphone', 'android']) {
      const res = await post(JSON.stringify(payload({ source_name: source })));
      expect(res.body.flowId).toBe('platform-mobile');
      expect((await view(res.body.orderId)).order.channel).toBe('mobile');
    }
    const other = await post(JSON.stringify(payload({ source_name: '1234567' })));
    expect((await view(other.body.orderId)).order.channel).toBe('web');
    const b2b = await post(JSON.stringify(payload({ company: { id: 77, location_id: 78 } })));
    expect(b2b.body.flowId).toBe('tpl-b2b-order');
    expect((await view(b2b.body.orderId)).order.model).toBe('b2b');
  });

  it('customer matched by email ignoring case; no match leaves no customerId', async () => {
    const match = await post(JSON.stringify(payload({ email: 'JON@example.COM' })));
    expect((await view(match.body.orderId)).order.customerId).toBe('cust_jon');
    const none = await post(JSON.stringify(payload({ email: 'stranger@example.org' })));
    expect((await view(none.body.orderId)).order.customerId).toBeNull();
  });

  it('shipTo carries coordinates only when both are present', async () => {
    const address = { name: 'Ann Lee', address1: '1 Main St', address2: 'Apt 2', city: 'Reno', province_code: 'NV', zip: '89501', country_code: 'US' };
    const both = await post(JSON.stringify(payload({ shipping_address: { ...address, latitude: 39.5, longitude: -119.8 } })));
    expect((await view(both.body.orderId)).order.meta.shipTo).toEqual({
      name: 'Ann Lee', line1: '1 Main St', line2: 'Apt 2', city: 'Reno', region: 'NV', postalCode: '89501', country: 'US', latitude: 39.5, longitude: -119.8,
    });
    const one = await post(JSON.stringify(payload({ shipping_address: { ...address, latitude: 39.5, longitude: null } })));
    expect((await view(one.body.orderId)).order.meta.shipTo).not.toHaveProperty('latitude');
  });

  it('64-bit ids are kept exactly as sent (not rounded by JSON parsing): neighbouring ids are two orders', async () => {
    const base = JSON.stringify(payload({ name: '#big' }));
    const a = await post(base.replace(/"id":\d+/, '"id":820982911946154508'));
    const b = await post(base.replace(/"id":\d+/, '"id":820982911946154509'));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const orderA = (await view(a.body.orderId)).order;
    expect(orderA.externalId).toBe('820982911946154508');
    expect(orderA.meta.shopify.id).toBe('820982911946154508');
    expect((await view(b.body.orderId)).order.externalId).toBe('820982911946154509');
  });

  it('409 while the routed flow is unpublished is retry-safe: the same delivery starts the order once published', async () => {
    await t.call('PUT', '/api/v1/flows/platform-late', { name: 'late', graph: graphs.webhookTrigger });
    await t.service.ctx.db.query(`UPDATE workspace SET order_routes = order_routes || '{"b2c:web": "platform-late"}'::jsonb`);
    try {
      const raw = JSON.stringify(payload());
      const before = await count(t, 'orders');
      expect((await post(raw)).status).toBe(409);
      expect(await count(t, 'orders')).toBe(before);
      await t.call('POST', '/api/v1/flows/platform-late/publish');
      const retry = await post(raw);
      expect(retry.status).toBe(201);
      expect(retry.body.flowId).toBe('platform-late');
    } finally {
      await t.service.ctx.db.query(`UPDATE workspace SET order_routes = order_routes - 'b2c:web'`);
    }
  });
});

// POST /api/v1/orders: validation, workspace rules, flow versions, idempotency under races, documents, restart
// (spec "Start an order", "Order input", "Errors", "Limits"; contract sections 4 and 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { countOrders, graphs, publishFlow, startBody, startOrdersService, tokenFor } from './orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'approval-flow', graphs.approval);
});
afterAll(async () => {
  await t?.close();
});

const post = (body: unknown, headers: Record<string, string> = {}, token?: string | null) => t.call('POST', '/api/v1/orders', body, { headers, token });

describe('start an order', () => {
  it('201 { orderId }; pins the latest published version; channel defaults to api; totals and fxRate from the workspace', async () => {
    const res = await post(startBody('wait-flow', { title: 'First', currency: 'EUR', lines: [{ sku: 'MUG-1', qty: 3, unitPrice: 1.005 }] }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ orderId: expect.stringMatching(/^ord_[0-9a-f]{24}$/) });
    const state = (await t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body;
    expect(state.status).toBe('waiting');
    expect(state.order).toMatchObject({ channel: 'api', currency: 'EUR', title: 'First', flowId: 'wait-flow', flowVersion: 1, fxRate: 0.92 });
    // Unit prices become minor units (half-up) and come back with the currency's digits.
    expect(state.order.lines[0]).toMatchObject({ sku: 'MUG-1', qty: 3, unitPrice: 1.01 });
    expect(state.order.subtotal).toBe(3.03);
    expect(state.order.total).toBe(3.03);
    expect(state.order.baseTotal).toBe(3.29);
  });

  it('lines without a price leave the totals to the flow; vars seed the run variables', async () => {
    const res = await post(startBody('wait-flow', { lines: [{ sku: 'A', qty: 1, unitPrice: 5 }, { sku: 'B', qty: 2 }] }, { vars: { seeded: 1 } }));
    const state = (await t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body;
    expect(state.order.total).toBe(5);
    expect(state.order.lines[1].unitPrice).toBeNull();
    expect(state.vars.seeded).toBe(1);
  });

  it('JPY has no minor digits (contract 10: money with the currency digits)', async () => {
    const res = await post(startBody('wait-flow', { currency: 'JPY', lines: [{ sku: 'A', qty: 1, unitPrice: 1999.5 }] }));
    const state = (await t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body;
    expect(state.order.total).toBe(2000);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['model missing', { model: undefined }, 'input.model'],
    ['unknown model', { model: 'retail' }, 'input.model'],
    ['unknown channel', { channel: 'fax' }, 'input.channel'],
    ['title over 140', { title: 'x'.repeat(141) }, 'input.title'],
    ['externalId empty', { externalId: '' }, 'input.externalId'],
    ['externalId over 200', { externalId: 'x'.repeat(201) }, 'input.externalId'],
    ['documentText over 50,000', { documentText: 'x'.repeat(50_001) }, 'input.documentText'],
    ['currency not a code', { currency: 'usd' }, 'input.currency'],
    ['qty 0', { lines: [{ sku: 'A', qty: 0 }] }, 'input.lines.0.qty'],
    ['negative price', { lines: [{ sku: 'A', qty: 1, unitPrice: -1 }] }, 'input.lines.0.unitPrice'],
    ['contact without email', { contact: { name: 'Ann' } }, 'input.contact.email'],
    ['contact email invalid', { contact: { email: 'not-an-email' } }, 'input.contact.email'],
    ['fulfillment method unknown', { fulfillment: { method: 'teleport' } }, 'input.fulfillment.method'],
    ['meta.source over 60', { meta: { source: 'x'.repeat(61) } }, 'input.meta.source'],
    ['meta.shipTo string over 500', { meta: { shipTo: 'x'.repeat(501) } }, 'input.meta.shipTo'],
    ['meta.shipTo object without city', { meta: { shipTo: { line1: '1 Main St', postalCode: '1000', country: 'US' } } }, 'input.meta.shipTo'],
    ['meta.simulate unknown', { meta: { simulate: 'meteor' } }, 'input.meta.simulate'],
    ['unknown input field', { curency: 'EUR' }, 'input'],
  ];
  for (const [what, patch, path] of invalid)
    it(`400 with issues and nothing started: ${what} (spec "Order input")`, async () => {
      const before = await countOrders(t);
      const body = startBody('wait-flow', patch);
      if ('model' in patch && patch.model === undefined) delete (body.input as Record<string, unknown>).model;
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
      expect(res.body.issues.map((i: { path: string }) => i.path).some((p: string) => p.startsWith(path))).toBe(true);
      expect(await countOrders(t)).toBe(before);
    });

  it('accepts the limits exactly and both shipTo forms', async () => {
    for (const input of [
      { title: 'x'.repeat(140), externalId: 'x'.repeat(200), meta: { source: 's'.repeat(60), shipTo: 'a'.repeat(500) } },
      { meta: { shipTo: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US', latitude: 40.7, longitude: -74 } } },
      { documentText: 'd'.repeat(50_000), documentKey: 'k'.repeat(200) },
    ])
      expect((await post(startBody('wait-flow', input))).status).toBe(201);
  });

  it('400 on a body that is not the start body: flowId missing, version 0, unknown top-level key', async () => {
    expect((await post({ input: { model: 'b2c' } })).status).toBe(400);
    expect((await post(startBody('wait-flow', {}, { version: 0 }))).status).toBe(400);
    expect((await post(startBody('wait-flow', {}, { extra: true }))).status).toBe(400);
  });

  it('400 Unsupported currency when the workspace has no rate for it; nothing starts (spec "Errors")', async () => {
    const before = await countOrders(t);
    const res = await post(startBody('wait-flow', { currency: 'CHF' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Unsupported currency CHF');
    expect(await countOrders(t)).toBe(before);
  });

  it('version pins a published version; a missing version, an unknown or unpublished flow is 409 (contract 10)', async () => {
    await publishFlow(t, 'versioned', graphs.eventWait);
    await publishFlow(t, 'versioned', graphs.approval);
    const pinned = await post(startBody('versioned', {}, { version: 1 }));
    expect((await t.call('GET', `/api/v1/orders/${pinned.body.orderId}`)).body.order.flowVersion).toBe(1);
    const latest = await post(startBody('versioned'));
    expect((await t.call('GET', `/api/v1/orders/${latest.body.orderId}`)).body.order.flowVersion).toBe(2);

    const before = await countOrders(t);
    expect((await post(startBody('versioned', {}, { version: 3 }))).status).toBe(409);
    expect((await post(startBody('no-such-flow'))).status).toBe(409);
    await t.call('PUT', '/api/v1/flows/draft-only', { name: 'Draft only', graph: graphs.eventWait });
    const draft = await post(startBody('draft-only'));
    expect(draft.status).toBe(409);
    expect(draft.body).toEqual({ error: 'Flow draft-only has no published version' });
    expect(await countOrders(t)).toBe(before);
  });

  it('roles: a viewer or approver token cannot start orders (403); an operator token can (spec "Roles")', async () => {
    expect((await post(startBody('wait-flow'), {}, await tokenFor(t, 'viewer'))).status).toBe(403);
    expect((await post(startBody('wait-flow'), {}, await tokenFor(t, 'approver'))).status).toBe(403);
    expect((await post(startBody('wait-flow'), {}, await tokenFor(t, 'operator'))).status).toBe(201);
    expect((await post(startBody('wait-flow'), {}, null)).status).toBe(401);
  });
});

describe('Idempotency-Key (spec "Start an order")', () => {
  it('a repeat returns 200 { orderId, replayed: true } with the first order; one order exists', async () => {
    const body = startBody('wait-flow', { title: 'idem-replay' });
    const first = await post(body, { 'Idempotency-Key': 'replay-1' });
    expect(first.status).toBe(201);
    const again = await post(body, { 'Idempotency-Key': 'replay-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ orderId: first.body.orderId, replayed: true });
    expect(await countOrders(t, 'title = $1', ['idem-replay'])).toBe(1);
  });

  it('property order is ignored by the fingerprint', async () => {
    const first = await post(
      { flowId: 'wait-flow', vars: { a: 1, b: { c: 2, d: 3 } }, input: { model: 'b2c', title: 'idem-order', currency: 'EUR', lines: [{ sku: 'A', qty: 1 }] } },
      { 'Idempotency-Key': 'order-1' },
    );
    const reordered = await post(
      { input: { lines: [{ qty: 1, sku: 'A' }], currency: 'EUR', title: 'idem-order', model: 'b2c' }, vars: { b: { d: 3, c: 2 }, a: 1 }, flowId: 'wait-flow' },
      { 'Idempotency-Key': 'order-1' },
    );
    expect(reordered.status).toBe(200);
    expect(reordered.body.orderId).toBe(first.body.orderId);
  });

  it('the same key with a different body is 422 and starts nothing (spec "Errors": 422)', async () => {
    await post(startBody('wait-flow', { title: 'idem-a' }), { 'Idempotency-Key': 'mismatch-1' });
    const before = await countOrders(t);
    for (const body of [startBody('wait-flow', { title: 'idem-b' }), startBody('approval-flow', { title: 'idem-a' }), startBody('wait-flow', { title: 'idem-a' }, { vars: { x: 1 } })]) {
      const res = await post(body, { 'Idempotency-Key': 'mismatch-1' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/different request body/);
    }
    expect(await countOrders(t)).toBe(before);
  });

  it('a key over 255 characters is 400; 255 is accepted (spec "Limits")', async () => {
    const before = await countOrders(t);
    const long = await post(startBody('wait-flow'), { 'Idempotency-Key': 'k'.repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/Idempotency-Key/);
    expect(await countOrders(t)).toBe(before);
    expect((await post(startBody('wait-flow'), { 'Idempotency-Key': 'k'.repeat(255) })).status).toBe(201);
  });

  it('a failed first try (409) does not keep the key: the same key works once the flow is published', async () => {
    await t.call('PUT', '/api/v1/flows/later', { name: 'Later', graph: graphs.eventWait });
    expect((await post(startBody('later'), { 'Idempotency-Key': 'later-1' })).status).toBe(409);
    await t.call('POST', '/api/v1/flows/later/publish');
    expect((await post(startBody('later'), { 'Idempotency-Key': 'later-1' })).status).toBe(201);
  });

  it('50 racing requests with one key start one order: one 201, the rest 200 with the same id', async () => {
    const body = startBody('wait-flow', { title: 'idem-race' });
    const results = await Promise.all(Array.from({ length: 50 }, () => post(body, { 'Idempotency-Key': 'race-1' })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    const ids = new Set(results.map((r) => r.body.orderId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.status === 200).every((r) => r.body.replayed === true)).toBe(true);
    expect(await countOrders(t, 'title = $1', ['idem-race'])).toBe(1);
    const state = (await t.call('GET', `/api/v1/orders/${[...ids][0]}`)).body;
    expect(state.status).toBe('waiting');
    expect(state.timeline.filter((x: { kind: string }) => x.kind === 'order.started')).toHaveLength(1);
  });

  it('the order and its first slice commit together: a first request that failed in its first slice recorded nothing, and the repeat starts the order', async () => {
    const registry = t.service.ctx.engine!.registry;
    const original = registry.load.bind(registry);
    registry.load = async () => {
      throw new Error('crash in the first slice');
    };
    const body = startBody('wait-flow', { title: 'idem-crash' });
    let first;
    try {
      first = await post(body, { 'Idempotency-Key': 'crash-1' });
    } finally {
      registry.load = original;
    }
    expect(first.status).toBe(500);
    expect((await t.service.ctx.db.query('SELECT id FROM orders WHERE title = $1', ['idem-crash'])).rows).toHaveLength(0);
    const again = await post(body, { 'Idempotency-Key': 'crash-1' });
    expect(again.status).toBe(201);
    expect(again.body.replayed ?? false).toBe(false);
    expect((await t.call('GET', `/api/v1/orders/${again.body.orderId}`)).body.status).toBe('waiting');
  });

  it('a repeat naming an order that was recorded but never started (an older two-step start) finishes the start', async () => {
    const first = await post(startBody('wait-flow', { title: 'idem-unstarted' }), { 'Idempotency-Key': 'unstarted-1' });
    expect(first.status).toBe(201);
    const { orderId } = first.body;
    // Made to look like an order recorded by a start that died before its first slice.
    const db = t.service.ctx.db;
    await db.query("UPDATE orders SET nodes = '{}' WHERE id = $1", [orderId]);
    await db.query('DELETE FROM order_waits WHERE order_id = $1', [orderId]);
    await db.query('DELETE FROM timers WHERE order_id = $1', [orderId]);
    await db.query("UPDATE orders SET started = false, status = 'queued' WHERE id = $1", [orderId]);
    const again = await post(startBody('wait-flow', { title: 'idem-unstarted' }), { 'Idempotency-Key': 'unstarted-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ orderId, replayed: true });
    expect((await t.call('GET', `/api/v1/orders/${orderId}`)).body.status).toBe('waiting');
  });
});

describe('order documents (contract section 10)', () => {
  it('documentText is stored as a document of the order and served at /docs/orders/:orderId/:documentId; documentKey is kept', async () => {
    const text = 'PO 4711\nMUG-1 x 3\n<script>alert(1)</script>';
    const res = await post(startBody('wait-flow', { documentText: text, documentKey: 'inbox/4711.eml' }));
    const state = (await t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body;
    expect(state.order.input.documentText).toBeUndefined();
    expect(state.order.input.documentKey).toBe('inbox/4711.eml');
    expect(state.documents).toEqual([expect.objectContaining({ kind: 'inbound', contentType: 'text/plain; charset=utf-8' })]);
    const doc = await t.call('GET', state.documents[0].url);
    expect(doc.status).toBe(200);
    expect(doc.text).toBe(text);
    expect(doc.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(doc.headers.get('content-security-policy')).toContain('sandbox');
    expect((await t.call('GET', state.documents[0].url, undefined, { token: await tokenFor(t, 'viewer') })).status).toBe(200);
    expect((await t.call('GET', state.documents[0].url, undefined, { token: null })).status).toBe(401);
    expect((await t.call('GET', `/docs/orders/${res.body.orderId}/doc_nope`)).status).toBe(404);
    const other = await post(startBody('wait-flow'));
    expect((await t.call('GET', `/docs/orders/${other.body.orderId}/${state.documents[0].id}`)).status).toBe(404);
  });
});

describe('restart (contract section 4)', () => {
  it('a cancelled order restarts as a new order with the same input on the same version, linked by restartedFrom', async () => {
    await publishFlow(t, 'restartable', graphs.eventWait);
    const first = await post(startBody('restartable', { title: 'to-restart', documentText: 'original text' }, { vars: { seed: 'x' } }));
    await publishFlow(t, 'restartable', graphs.approval); // v2 exists now; the restart stays on v1
    expect((await t.call('POST', `/api/v1/orders/${first.body.orderId}/restart`)).status).toBe(409); // still waiting
    expect((await t.call('POST', `/api/v1/orders/${first.body.orderId}/cancel`)).status).toBe(200);
    const res = await t.call('POST', `/api/v1/orders/${first.body.orderId}/restart`);
    expect(res.status).toBe(201);
    expect(res.body.orderId).not.toBe(first.body.orderId);
    const state = (await t.call('GET', `/api/v1/orders/${res.body.orderId}`)).body;
    expect(state.order).toMatchObject({ restartedFrom: first.body.orderId, flowVersion: 1, title: 'to-restart' });
    expect(state.status).toBe('waiting');
    expect(state.vars.seed).toBe('x');
    expect(state.documents).toHaveLength(1);
    expect((await t.call('GET', state.documents[0].url)).text).toBe('original text');
  });

  it('restart with an Idempotency-Key makes one new order; unknown order 404; operator only', async () => {
    const first = await post(startBody('wait-flow'));
    await t.call('POST', `/api/v1/orders/${first.body.orderId}/cancel`);
    const a = await t.call('POST', `/api/v1/orders/${first.body.orderId}/restart`, undefined, { headers: { 'Idempotency-Key': 'restart-1' } });
    const b = await t.call('POST', `/api/v1/orders/${first.body.orderId}/restart`, undefined, { headers: { 'Idempotency-Key': 'restart-1' } });
    expect(a.status).toBe(201);
    expect(b).toMatchObject({ status: 200, body: { orderId: a.body.orderId, replayed: true } });
    expect((await t.call('POST', '/api/v1/orders/ord_unknown/restart')).status).toBe(404);
    expect((await t.call('POST', `/api/v1/orders/${first.body.orderId}/restart`, undefined, { token: await tokenFor(t, 'approver') })).status).toBe(403);
  });
});

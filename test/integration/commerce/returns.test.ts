// Returns (runtime contract section 18, issue 36) through the HTTP surface: the refund to the cent, restock and the
// sellers' payouts by the spec's "Payout computation"; quantity limits and refusals; expiry; refund failure; the
// payout held by an open return; idempotency; the parent's cancel; one order.refunded per return; the order page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { eventually } from '../orders/orders-support.js';
import { dataAttrs, getPage, makePerson, postForm } from '../identity/identity-client.js';
import { outboxId } from '../../../src/engine/runtime/outbox.js';
import { startReceiver } from '../orders/webhook-receiver.js';
import { ReturnLinks } from '../../../src/orders/return-links.js';

const DAY = 86_400_000;
let t: TestService;
let rx: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await startTestService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  rx = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

const rows = async <T = any>(sql: string, params: unknown[] = []) => (await t.service.ctx.db.query(sql, params)).rows as T[];
const state = async (id: string) => {
  const res = await t.call('GET', `/api/v1/orders/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const startReturn = (orderId: string, body: unknown, headers?: Record<string, string>) => t.call('POST', `/api/v1/orders/${orderId}/returns`, body, headers ? { headers } : undefined);
const receive = (returnId: string) => t.call('POST', `/api/v1/orders/${returnId}/events`, { event: 'return.received', payload: { carrier: 'Demo Parcel' } });
const payouts = async (orderId: string) =>
  Object.fromEntries(((await t.call('GET', `/api/v1/orders/${orderId}/payouts`)).body.payouts as any[]).map((p) => [p.sellerId, { gross: p.gross, refunded: p.refunded, commission: p.commission, net: p.net }]));
const outbox = (orderIds: string[]) => rows('SELECT id, order_id, event, data FROM outbox WHERE order_id = ANY($1) ORDER BY created_at, id', [orderIds]);
const onHand = async (sku: string, locationId: string) => Number((await rows('SELECT on_hand FROM stock_levels WHERE sku = $1 AND location_id = $2', [sku, locationId]))[0].on_hand);

/**
 * A marketplace order whose payment was captured: seller_acme's lines (PAN-CAST-10) accepted, seller_nimbus's (PRINT-A3)
 * auto-accepted, seller_bolt's (TENT-2P) rejected when `rejectBolt`. It rests in the return window (14 days in the demo).
 */
async function paidOrder(lines: Record<string, unknown>[], o: { rejectBolt?: boolean; meta?: Record<string, unknown> } = {}): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', {
    flowId: 'tpl-marketplace-order',
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', contact: { email: 'buyer@example.com' }, currency: 'USD', lines, ...(o.meta ? { meta: o.meta } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  const id: string = res.body.orderId;
  const answer = (sellerId: string, decision: string) => t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId, decision } });
  if (lines.some((l) => l.sku === 'TENT-2P')) expect((await answer('seller_bolt', o.rejectBolt ? 'rejected' : 'accepted')).body.delivered).toBe(true);
  if (lines.some((l) => l.sku === 'PAN-CAST-10')) expect((await answer('seller_acme', 'accepted')).body.delivered).toBe(true);
  const s = await state(id);
  expect(s.nodes.capture.status).toBe('succeeded');
  expect(s.nodes.wait_returns.status).toBe('waiting');
  return id;
}

describe('a return before the payout (contract 18, spec "Payout computation")', () => {
  it('refunds the returned lines\' share of the total to the cent (tax included) through the order\'s payment, restocks the units, and lowers both sellers\' payouts by the formula', async () => {
    await rows('UPDATE workspace SET tax_rate = 0.0825 WHERE id = 1');
    let parent: string;
    try {
      // 3 x 45.00 (seller_acme, 12%) + 1 x 28.00 (seller_nimbus, 15%) = 163.00; tax 8.25% = 13.4475 -> 13.45; total 176.45.
      parent = await paidOrder([{ sku: 'PAN-CAST-10', qty: 3 }, { sku: 'PRINT-A3', qty: 1 }]);
    } finally {
      await rows('UPDATE workspace SET tax_rate = 0 WHERE id = 1');
    }
    expect((await state(parent)).order).toMatchObject({ subtotal: 163, tax: 13.45, total: 176.45, returnOf: null });
    const [shipped] = await rows("SELECT location_id FROM stock_reservations WHERE order_id = $1 AND sku = 'PAN-CAST-10' AND status = 'consumed'", [parent]);
    const before = await onHand('PAN-CAST-10', shipped.location_id);

    const started = await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }], reason: 'Arrived dented' });
    expect(started.status, started.text).toBe(201);
    expect(started.body).toEqual({ returnId: expect.stringMatching(/^ord_/), orderId: parent });
    const returnId: string = started.body.returnId;
    // Line shares of 176.45: 135.00 -> 146.14, 28.00 -> 30.31 (largest remainder); one pan of three: 146.14 / 3 = 48.71.
    const amount = 48.71;

    // The return is an order-like run of tpl-return with its own live state, linked to its order; it waits for the goods.
    const r = await state(returnId);
    expect(r).toMatchObject({ status: 'waiting', flow: { id: 'tpl-return' }, returns: [], returnable: { lines: [], closed: expect.stringMatching(/is a return/) } });
    expect(r.order).toMatchObject({ returnOf: parent, model: 'marketplace', channel: 'marketplace', externalId: null, currency: 'USD', total: amount });
    expect(r.order.lines).toEqual([expect.objectContaining({ sku: 'PAN-CAST-10', qty: 1, unitPrice: 45, sellerId: 'seller_acme', locationId: shipped.location_id })]);
    expect(r.waits).toEqual([expect.objectContaining({ nodeId: 'wait_goods', kind: 'event', event: 'return.received' })]);
    expect(r.waits[0].deadline - r.waits[0].since).toBe(30 * DAY);
    expect(r.vars.return).toMatchObject({ of: parent, amount, currency: 'USD' });

    // The parent lists it; what is left to return counts it.
    let p = await state(parent);
    expect(p.returns).toEqual([
      { returnId, status: 'waiting', lines: [{ sku: 'PAN-CAST-10', sellerId: 'seller_acme', qty: 1, amount }], amount, reason: 'Arrived dented', createdAt: expect.any(Number) },
    ]);
    expect(p.returnable).toEqual({
      lines: [
        { sku: 'PAN-CAST-10', sellerId: 'seller_acme', name: expect.any(String), qty: 2 },
        { sku: 'PRINT-A3', sellerId: 'seller_nimbus', name: expect.any(String), qty: 1 },
      ],
      closed: null,
      windowEndsAt: null,
    });

    // Not an order-list row, not in find_orders.
    const list = (await t.call('GET', '/api/v1/orders?limit=200')).body.orders.map((o: any) => o.id);
    expect(list).toContain(parent);
    expect(list).not.toContain(returnId);
    expect((await t.call('GET', `/api/v1/orders/totals?q=${returnId}`)).body.count).toBe(0);
    expect((await t.call('GET', `/api/v1/orders/totals?q=${parent}`)).body.count).toBe(1);

    expect((await receive(returnId)).body).toEqual({ delivered: true, nodeId: 'wait_goods' });
    const done = await state(returnId);
    expect(done.status).toBe('completed');
    expect(done.nodes.refund.output).toMatchObject({ amount, currency: 'USD' });
    expect(done.nodes.restock.output).toEqual({ restocked: [{ sku: 'PAN-CAST-10', locationId: shipped.location_id, qty: 1 }], skipped: [] });
    // Through the order's payment: one refund against its capture, counted for its payouts.
    expect(await rows('SELECT order_id, amount_minor, status FROM refunds WHERE order_id IN ($1, $2)', [parent, returnId])).toEqual([
      { order_id: parent, amount_minor: '4871', status: 'succeeded' },
    ]);
    expect(await onHand('PAN-CAST-10', shipped.location_id)).toBe(before + 1);
    // Events: order.refunded for the parent (its summary, data.returnId), its id made from the return's run; nothing else of the return.
    const events = await outbox([parent, returnId]);
    expect(events.filter((e) => e.order_id === returnId)).toEqual([]);
    const refunded = events.filter((e) => e.event === 'order.refunded');
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ id: outboxId(returnId, 1, { event: 'order.refunded', nodeId: 'refund', run: 1 }), order_id: parent });
    expect(refunded[0].data).toMatchObject({ returnId, order: { id: parent, total: 176.45 }, node: { id: 'refund', type: 'commerce.refund', output: { amount } } });
    p = await state(parent);
    expect(p.returns[0]).toMatchObject({ returnId, status: 'completed' });

    // After the return window: refunded = 48.71 x gross / 176.45, commission on the rest, net = gross - refunded - commission.
    await t.advance(14 * DAY);
    expect((await state(parent)).status).toBe('completed');
    expect(await payouts(parent)).toEqual({
      // 4871 x 13500 / 17645 = 3726.75 -> 37.27; (135.00 - 37.27) x 12% = 11.7276 -> 11.73; net 86.00.
      seller_acme: { gross: 135, refunded: 37.27, commission: 11.73, net: 86 },
      // 4871 x 2800 / 17645 = 772.96 -> 7.73; (28.00 - 7.73) x 15% = 3.0405 -> 3.04; net 17.23.
      seller_nimbus: { gross: 28, refunded: 7.73, commission: 3.04, net: 17.23 },
    });

    // A return after the payout ran: 409, nothing recorded.
    const late = await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }] });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/payouts of order .* were scheduled: its return window is closed/);
    expect(await rows('SELECT count(*)::int AS n FROM order_returns WHERE order_id = $1', [parent])).toEqual([{ n: 1 }]);
    expect((await state(parent)).returnable).toMatchObject({ lines: [], closed: expect.stringMatching(/return window is closed/) });
  });
});

describe('what may be returned (contract 18)', () => {
  it('quantities per SKU and seller across several returns (a cancelled return frees its units), dropped lines excluded, issues for unknown SKUs and ambiguous sellers, 409 for a return of a return; two returns each send their own order.refunded', async () => {
    const parent = await paidOrder(
      [{ sku: 'PAN-CAST-10', qty: 3 }, { sku: 'TENT-2P', qty: 1 }, { sku: 'MUG-1', qty: 2 }, { sku: 'MUG-1', qty: 1, sellerId: 'seller_nimbus' }],
      { rejectBolt: true },
    );
    const refused = async (body: unknown, path: string, message: RegExp) => {
      const res = await startReturn(parent, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.issues).toEqual([expect.objectContaining({ path, message: expect.stringMatching(message) })]);
    };
    await refused({ lines: [{ sku: 'TENT-2P', qty: 1 }] }, 'lines.0.sku', /TENT-2P was dropped from the order/);
    await refused({ lines: [{ sku: 'NOPE-1', qty: 1 }] }, 'lines.0.sku', /NOPE-1 is not on the order/);
    await refused({ lines: [{ sku: 'MUG-1', qty: 1 }] }, 'lines.0.sellerId', /several sellers \(first party, seller_nimbus\)/);
    await refused({ lines: [{ sku: 'MUG-1', qty: 1, sellerId: 'seller_bolt' }] }, 'lines.0.sellerId', /No line of MUG-1 is sold by seller_bolt/);
    await refused({ lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'PAN-CAST-10', qty: 1 }] }, 'lines.1', /same SKU and seller as lines.0/);
    await refused({ lines: [{ sku: 'PAN-CAST-10', qty: 4 }] }, 'lines.0.qty', /At most 3 unit\(s\) of PAN-CAST-10 left/);
    expect((await startReturn(parent, { lines: [] })).status).toBe(400);

    const first = await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'MUG-1', qty: 1, sellerId: null }] });
    expect(first.status, first.text).toBe(201);
    await refused({ lines: [{ sku: 'PAN-CAST-10', qty: 3 }] }, 'lines.0.qty', /At most 2 unit\(s\) of PAN-CAST-10 left/);
    const second = await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 2 }, { sku: 'MUG-1', qty: 1, sellerId: 'seller_nimbus' }] });
    expect(second.status, second.text).toBe(201);
    await refused({ lines: [{ sku: 'PAN-CAST-10', qty: 1 }] }, 'lines.0.qty', /No unit of PAN-CAST-10 is left to return/);
    expect(await rows('SELECT count(*)::int AS n FROM order_returns WHERE order_id = $1', [parent])).toEqual([{ n: 2 }]);

    // A return that ends cancelled no longer covers its units.
    expect((await t.call('POST', `/api/v1/orders/${first.body.returnId}/cancel`, { reason: 'Buyer kept it' })).status).toBe(200);
    expect((await state(parent)).returnable.lines).toEqual([
      { sku: 'PAN-CAST-10', sellerId: 'seller_acme', name: expect.any(String), qty: 1 },
      { sku: 'MUG-1', sellerId: null, name: expect.any(String), qty: 2 },
    ]);
    const third = await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }] });
    expect(third.status, third.text).toBe(201);

    // A return of a return, a restart of a return: refused.
    const ofReturn = await startReturn(second.body.returnId, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }] });
    expect(ofReturn.status).toBe(409);
    expect(ofReturn.body.error).toMatch(/a return cannot itself be returned/);
    expect((await t.call('POST', `/api/v1/orders/${first.body.returnId}/restart`, {})).status).toBe(409);

    // Tax 0: a pan is 45.00; the last of the three takes the (zero) remainder; a nimbus mug 12.50.
    expect((await state(parent)).returns.map((r: any) => [r.status, r.amount])).toEqual([
      ['cancelled', 57.5],
      ['waiting', 102.5],
      ['waiting', 45],
    ]);
    const sub = await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/ok`, events: ['order.refunded'] });
    expect(sub.status, sub.text).toBe(201);
    for (const r of [second, third]) expect((await receive(r.body.returnId)).body.delivered).toBe(true);
    // Each return's refund is a delivery of its own to the order's subscribers: the order's id, the return named.
    const delivered = await eventually(async () => {
      const got = rx.on('/ok').filter((d) => d.body?.orderId === parent);
      return got.length === 2 ? got : null;
    }, 10_000, 'two order.refunded deliveries');
    expect(delivered.map((d) => [d.body.event, d.body.data.returnId])).toEqual(expect.arrayContaining([
      ['order.refunded', second.body.returnId],
      ['order.refunded', third.body.returnId],
    ]));
    expect(new Set(delivered.map((d) => d.headers['x-service-delivery'])).size).toBe(2);
    expect((await t.call('DELETE', `/api/v1/webhook-subscriptions/${sub.body.subscription.id}`)).status).toBe(200);
    const refunded = (await outbox([parent, first.body.returnId, second.body.returnId, third.body.returnId])).filter((e) => e.event === 'order.refunded');
    expect(refunded.map((e) => [e.order_id, e.data.returnId, e.data.node.output.amount])).toEqual([
      [parent, second.body.returnId, 102.5],
      [parent, third.body.returnId, 45],
    ]);
    expect(new Set(refunded.map((e) => e.id)).size).toBe(2);
    expect((await rows('SELECT amount_minor FROM refunds WHERE order_id = $1 ORDER BY created_at', [parent])).map((r) => Number(r.amount_minor))).toEqual([10250, 4500]);
  });

  it('refuses a return before the payment is captured (409), and for an unknown order (404); nothing is recorded', async () => {
    const res = await t.call('POST', '/api/v1/orders', {
      flowId: 'tpl-marketplace-order',
      input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku: 'PAN-CAST-10', qty: 1 }] },
    });
    const id = res.body.orderId;
    expect((await state(id)).nodes.wait_sellers.status).toBe('waiting');
    const early = await startReturn(id, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }] });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatch(/no captured or charged payment yet/);
    expect((await state(id)).returnable).toMatchObject({ lines: [], closed: expect.stringMatching(/no captured or charged payment/) });
    expect((await startReturn('ord_nobody', { lines: [{ sku: 'PAN-CAST-10', qty: 1 }] })).status).toBe(404);
    // The return flow is not started on its own: a return starts from its order.
    const direct = await t.call('POST', '/api/v1/orders', { flowId: 'tpl-return', input: { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 5 }] } });
    expect(direct.status).toBe(409);
    expect(direct.body.error).toMatch(/tpl-return runs returns: start one from its order/);
    expect(await rows('SELECT count(*)::int AS n FROM orders WHERE return_of = $1', [id])).toEqual([{ n: 0 }]);
  });

  it('an order whose flow schedules no payout (storefront) takes returns until returnWindowDays after its capture, also once it completed', async () => {
    const res = await t.call('POST', '/api/v1/orders', {
      flowId: 'tpl-storefront-order',
      input: { model: 'b2c', channel: 'web', customerId: 'cust_1', contact: { email: 'buyer@example.com' }, currency: 'USD', lines: [{ sku: 'MUG-1', qty: 2 }] },
    });
    expect(res.status, res.text).toBe(201);
    const id: string = res.body.orderId;
    const s = await state(id);
    expect(s.status).toBe('completed');
    const [capture] = await rows('SELECT created_at FROM payment_charges WHERE order_id = $1', [id]);
    expect(s.returnable).toEqual({ lines: [{ sku: 'MUG-1', sellerId: null, name: expect.any(String), qty: 2 }], closed: null, windowEndsAt: Number(capture.created_at) + 14 * DAY });
    const started = await startReturn(id, { lines: [{ sku: 'MUG-1', qty: 1 }] });
    expect(started.status, started.text).toBe(201);
    expect((await receive(started.body.returnId)).body.delivered).toBe(true);
    expect((await state(started.body.returnId)).status).toBe('completed');
    expect(await rows('SELECT amount_minor FROM refunds WHERE order_id = $1', [id])).toEqual([{ amount_minor: '1250' }]);
    await t.advance(14 * DAY);
    const late = await startReturn(id, { lines: [{ sku: 'MUG-1', qty: 1 }] });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/return window of order .* closed on /);
  });

  it('Idempotency-Key as on POST /orders: a repeat starts no second return (200, replayed), another body with the key is 422', async () => {
    const parent = await paidOrder([{ sku: 'PRINT-A3', qty: 2 }]);
    const body = { lines: [{ sku: 'PRINT-A3', qty: 1 }] };
    const first = await startReturn(parent, body, { 'Idempotency-Key': 'return-key-1' });
    expect(first.status, first.text).toBe(201);
    const again = await startReturn(parent, body, { 'Idempotency-Key': 'return-key-1' });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ returnId: first.body.returnId, orderId: parent, replayed: true });
    expect((await startReturn(parent, { lines: [{ sku: 'PRINT-A3', qty: 2 }] }, { 'Idempotency-Key': 'return-key-1' })).status).toBe(422);
    expect(await rows('SELECT count(*)::int AS n FROM orders WHERE return_of = $1', [parent])).toEqual([{ n: 1 }]);
  });
});

describe('the tool start_return (contract 11, 18)', () => {
  it('starts a return as POST /orders/:id/returns does, for an operator; a viewer is refused by the registry', async () => {
    const parent = await paidOrder([{ sku: 'PRINT-A3', qty: 1 }]);
    const operator = { kind: 'person' as const, id: 'per_agent', role: 'operator' as const, actor: 'agent@example.com', via: 'bearer' as const };
    const call = (as: typeof operator | (Omit<typeof operator, 'role'> & { role: 'viewer' })) =>
      t.service.ctx.operations.callRaw('start_return', as, { orderId: parent, lines: [{ sku: 'PRINT-A3', qty: 1 }], reason: 'Wrong size' }, { ip: null });
    const refused = await call({ ...operator, role: 'viewer' }).catch((err: unknown) => err);
    expect((refused as { kind?: string }).kind).toBe('forbidden');
    const out = await call(operator);
    expect(out).toEqual({ returnId: expect.stringMatching(/^ord_/), orderId: parent });
    expect((await state(parent)).returns).toEqual([expect.objectContaining({ returnId: out.returnId, reason: 'Wrong size', status: 'waiting' })]);
  });
});

describe('returns and the payout (contract 18)', () => {
  it('a return still open when the window ends holds the payout until it is received; the payout then nets its refund', async () => {
    // Tax 0: 2 x 45.00 (acme) + 28.00 (nimbus) = 118.00.
    const parent = await paidOrder([{ sku: 'PAN-CAST-10', qty: 2 }, { sku: 'PRINT-A3', qty: 1 }]);
    const { returnId } = (await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 1 }] })).body;
    await t.advance(14 * DAY);
    const held = await state(parent);
    expect(held.status).toBe('waiting');
    expect(held.nodes.returns_check.output).toEqual({ open: [returnId] });
    expect(held.waits).toEqual([expect.objectContaining({ nodeId: 'wait_return_end', event: 'return.ended' })]);
    expect(await payouts(parent)).toEqual({});
    // The order page says why it waits, with no button to send the event a return sends itself.
    const page = await getPage(t, `/orders/${parent}`, (await makePerson(t, 'operator')).cookie);
    expect(page.text).toContain('The payout waits for the order');
    expect(dataAttrs(page.text, 'event')).toEqual([]);

    expect((await receive(returnId)).body.delivered).toBe(true);
    await eventually(async () => (await state(parent)).status === 'completed', 10_000, 'the parent woken and paid out');
    expect(await payouts(parent)).toEqual({
      // 4500 x 9000 / 11800 = 3432.2 -> 34.32; (90.00 - 34.32) x 12% = 6.6816 -> 6.68; net 49.00.
      seller_acme: { gross: 90, refunded: 34.32, commission: 6.68, net: 49 },
      // 4500 x 2800 / 11800 = 1067.8 -> 10.68; (28.00 - 10.68) x 15% = 2.598 -> 2.60; net 14.72.
      seller_nimbus: { gross: 28, refunded: 10.68, commission: 2.6, net: 14.72 },
    });
  });

  it('an expired return refunds nothing and ends cancelled "Return not received", sending no event; the payout it held is then whole', async () => {
    const parent = await paidOrder([{ sku: 'PAN-CAST-10', qty: 2 }, { sku: 'PRINT-A3', qty: 1 }]);
    const { returnId } = (await startReturn(parent, { lines: [{ sku: 'PAN-CAST-10', qty: 2 }] })).body;
    await t.advance(14 * DAY);
    expect((await state(parent)).nodes.returns_check.output).toEqual({ open: [returnId] });
    await t.advance(16 * DAY);
    const expired = await state(returnId);
    expect(expired).toMatchObject({ status: 'cancelled', reason: 'Return not received' });
    await eventually(async () => (await state(parent)).status === 'completed', 10_000, 'the parent woken and paid out');
    expect(await payouts(parent)).toEqual({
      seller_acme: { gross: 90, refunded: 0, commission: 10.8, net: 79.2 },
      seller_nimbus: { gross: 28, refunded: 0, commission: 4.2, net: 23.8 },
    });
    expect(await rows('SELECT id FROM refunds WHERE order_id IN ($1, $2)', [parent, returnId])).toEqual([]);
    const events = await outbox([parent, returnId]);
    expect(events.filter((e) => e.order_id === returnId || e.event === 'order.refunded')).toEqual([]);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['order.payout_scheduled', 'order.completed']));
  });

  it('cancelling the order cancels its open returns; it then takes no more', async () => {
    const parent = await paidOrder([{ sku: 'PRINT-A3', qty: 1 }]);
    const { returnId } = (await startReturn(parent, { lines: [{ sku: 'PRINT-A3', qty: 1 }] })).body;
    expect((await t.call('POST', `/api/v1/orders/${parent}/cancel`, { reason: 'Fraud confirmed' })).status).toBe(200);
    const cancelled = await eventually(async () => {
      const r = await state(returnId);
      return r.status === 'cancelled' ? r : null;
    }, 10_000, 'the return cancelled');
    expect(cancelled.reason).toBe(`Order ${parent} cancelled`);
    expect((await outbox([returnId])).length).toBe(0);
    const refused = await startReturn(parent, { lines: [{ sku: 'PRINT-A3', qty: 1 }] });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/ended cancelled: it takes no returns/);
  });

  it('a refund that keeps failing rolls the return back (run outcome rules): nothing refunded or restocked, no event', async () => {
    const parent = await paidOrder([{ sku: 'PRINT-A3', qty: 2 }], { meta: { simulate: 'refund_error' } });
    const { returnId } = (await startReturn(parent, { lines: [{ sku: 'PRINT-A3', qty: 1 }] })).body;
    expect((await receive(returnId)).body.delivered).toBe(true);
    expect((await state(returnId)).nodes.refund).toMatchObject({ status: 'running', attempt: 1 });
    await t.advance(1000);
    await t.advance(2000);
    const r = await state(returnId);
    expect(r.status).toBe('rolled_back');
    expect(r.nodes.refund).toMatchObject({ status: 'failed', attempt: 3 });
    expect(r.nodes.restock.status).toBe('skipped');
    expect(await rows('SELECT id FROM refunds WHERE order_id = $1', [parent])).toEqual([]);
    expect(await rows('SELECT id FROM stock_receipts WHERE order_id = $1', [returnId])).toEqual([]);
    expect(await outbox([returnId])).toEqual([]);
    expect((await outbox([parent])).map((e) => e.event)).not.toContain('order.refunded');
    // Only a return that ended cancelled frees its units (contract 18).
    expect((await state(parent)).returnable.lines).toEqual([{ sku: 'PRINT-A3', sellerId: 'seller_nimbus', name: expect.any(String), qty: 1 }]);
  });
});

describe('the links between a return and its order when a notice is lost (docs/commerce.md "Returns")', () => {
  it('the sweep wakes an order held by returns that all ended, and cancels the open returns of an order that ended unsold', async () => {
    const held = await paidOrder([{ sku: 'PRINT-A3', qty: 2 }]);
    const first = (await startReturn(held, { lines: [{ sku: 'PRINT-A3', qty: 1 }] })).body.returnId;
    const open = await paidOrder([{ sku: 'PRINT-A3', qty: 1 }]);
    const second = (await startReturn(open, { lines: [{ sku: 'PRINT-A3', qty: 1 }] })).body.returnId;
    await t.advance(14 * DAY);
    expect((await state(held)).waits).toEqual([expect.objectContaining({ event: 'return.ended' })]);
    // Two commits whose change notices a crash lost (a status written without a slice sends none).
    await rows("UPDATE orders SET status = 'cancelled' WHERE id = $1", [first]);
    await rows("UPDATE orders SET status = 'cancelled' WHERE id = $1", [open]);
    const links = new ReturnLinks({ db: t.service.ctx.db, engine: t.service.ctx.engine!, logger: t.service.ctx.logger });
    await links.sweep();
    expect((await state(held)).status).toBe('completed');
    expect(await state(second)).toMatchObject({ status: 'cancelled', reason: `Order ${open} cancelled` });
    // Settled: a second sweep finds nothing.
    expect(await links.sweep()).toBe(0);
  });
});

describe('the order page (contract 13, 18)', () => {
  it('lists the returns with status and amount and offers an operator the Return form with what is left; the form starts a return', async () => {
    const parent = await paidOrder([{ sku: 'PAN-CAST-10', qty: 2 }]);
    const operator = await makePerson(t, 'operator');
    const viewer = await makePerson(t, 'viewer');
    let page = await getPage(t, `/orders/${parent}`, operator.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-return-form');
    expect(dataAttrs(page.text, 'returnable-sku')).toEqual(['PAN-CAST-10']);
    expect(page.text).toContain('data-no-returns');
    expect((await getPage(t, `/orders/${parent}`, viewer.cookie)).text).not.toContain('data-return-form');

    const key = /name="idempotencyKey" value="(return-[^"]+)"/.exec(page.text)![1];
    const posted = await postForm(t, `/orders/${parent}/returns`, { idempotencyKey: key, 'qty:PAN-CAST-10:seller_acme': '1', reason: 'Too heavy' }, { cookie: operator.cookie });
    expect(posted.status, posted.text.slice(0, 500)).toBe(303);
    const returnId = /\/orders\/(ord_[0-9a-f]+)$/.exec(posted.location!)![1];
    const returnPage = await getPage(t, posted.location!, operator.cookie);
    expect(dataAttrs(returnPage.text, 'return-of')).toEqual([parent]);
    expect(returnPage.text).not.toContain('data-return-form');
    // Its wait offers the operator "Goods received" (return.received).
    expect(dataAttrs(returnPage.text, 'event')).toEqual(['return.received']);

    page = await getPage(t, `/orders/${parent}`, operator.cookie);
    expect(dataAttrs(page.text, 'return-id')).toEqual([returnId]);
    expect(dataAttrs(page.text, 'return-status')).toEqual(['waiting']);
    expect(dataAttrs(page.text, 'return-amount')).toEqual(['45']);
    // Too many units: the page says why (the operation's issues), nothing starts.
    const tooMany = await postForm(t, `/orders/${parent}/returns`, { 'qty:PAN-CAST-10:seller_acme': '5' }, { cookie: operator.cookie });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toMatch(/At most 1 unit\(s\) of PAN-CAST-10 left to return/);
    expect((await postForm(t, `/orders/${parent}/returns`, { 'qty:PAN-CAST-10:seller_acme': '1' }, { cookie: viewer.cookie })).status).toBe(403);
    expect(await rows('SELECT count(*)::int AS n FROM orders WHERE return_of = $1', [parent])).toEqual([{ n: 1 }]);
  });
});

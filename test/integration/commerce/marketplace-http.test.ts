// The marketplace flow through the REST API (spec "Endpoints"): start, seller answers as events, cancel, payouts and
// seller orders (contract section 4), unknown simulate values refused at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommerceHarness, DAY, type CommerceHarness } from './commerce-harness.js';

let h: CommerceHarness;
beforeAll(async () => {
  h = await startCommerceHarness();
});
afterAll(async () => {
  await h?.close();
});

const start = (input: Record<string, unknown>) =>
  h.t.call('POST', '/api/v1/orders', { flowId: 'tpl-marketplace-order', input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', ...input } });
const event = (id: string, payload: unknown) => h.t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload });

describe('marketplace over REST', () => {
  it('partial acceptance in EUR with a given price kept: capture, payouts and seller orders as the API shows them', async () => {
    const res = await start({
      currency: 'EUR',
      lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1, unitPrice: 150 }, { sku: 'MUG-1', qty: 2 }],
    });
    expect(res.status).toBe(201);
    const id = res.body.orderId;
    let order = (await h.t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(order.status).toBe('waiting');
    // 45 USD -> 41.40 EUR (0.92); the tent's given 150.00 EUR is kept; 2 mugs 2 x 11.50.
    expect(order.order.total).toBe(214.4);
    expect((await event(id, { sellerId: 'seller_bolt', decision: 'rejected', reason: 'Sold out' })).body).toEqual({ delivered: true, nodeId: 'wait_sellers' });
    expect((await event(id, { sellerId: 'seller_acme', decision: 'accepted' })).body.delivered).toBe(true);
    order = (await h.t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(order.order.total).toBe(64.4);
    expect(order.nodes.capture.output).toMatchObject({ authorized: 214.4, captured: 64.4, released: 150, currency: 'EUR' });
    expect((await event(id, { sellerId: 'seller_bolt', decision: 'accepted' })).body).toEqual({ delivered: false, waitingFor: [] });
    await h.t.advance(14 * DAY);
    order = (await h.t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(order.status).toBe('completed');
    const payouts = (await h.t.call('GET', `/api/v1/orders/${id}/payouts`)).body.payouts;
    expect(payouts).toEqual([expect.objectContaining({ sellerId: 'seller_acme', currency: 'EUR', gross: 41.4, commission: 4.97, net: 36.43, status: 'scheduled' })]);
    const bolt = (await h.t.call('GET', '/api/v1/sellers/seller_bolt/orders')).body.sellerOrders.find((s: any) => s.orderId === id);
    expect(bolt).toMatchObject({ status: 'rejected', reason: 'Sold out', subtotal: 150, currency: 'EUR' });
  });

  it('cancel over REST voids the authorization and cancels the seller orders', async () => {
    const id = (await start({ lines: [{ sku: 'PAN-CAST-10', qty: 1 }] })).body.orderId;
    expect((await h.t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'Buyer cancelled' })).status).toBe(200);
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'cancelled' } });
  });

  it('an unknown meta.simulate value is a 400 and starts nothing', async () => {
    const res = await start({ lines: [{ sku: 'MUG-1', qty: 1 }], meta: { simulate: 'meteor_strike' } });
    expect(res.status).toBe(400);
  });
});

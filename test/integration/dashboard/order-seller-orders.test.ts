// Seller orders on the order page (contract 13 "seller orders"): the listOrderSellerOrders operation, the page's section
// with each part's status, and accept/reject buttons per pending seller for operators only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { getPage, makePerson, type TestPerson } from '../identity/identity-client.js';

let t: TestService;
let operator: TestPerson;
let viewer: TestPerson;
let orderId: string;

beforeAll(async () => {
  t = await startTestService();
  [operator, viewer] = [await makePerson(t, 'operator'), await makePerson(t, 'viewer')];
  const res = await t.call('POST', '/api/v1/orders', {
    flowId: 'tpl-marketplace-order',
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', currency: 'USD', lines: [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }, { sku: 'MUG-1', qty: 2 }] },
  });
  expect(res.status, res.text).toBe(201);
  orderId = res.body.orderId;
});
afterAll(async () => {
  await t?.close();
});

describe('seller orders of an order', () => {
  it('GET /api/v1/orders/:id/seller-orders lists each part with its seller (first party null) and status; 404 for an unknown order', async () => {
    const res = await t.call('GET', `/api/v1/orders/${orderId}/seller-orders`);
    expect(res.status, res.text).toBe(200);
    const bySeller = Object.fromEntries(res.body.sellerOrders.map((s: any) => [String(s.sellerId), s.status]));
    expect(bySeller).toMatchObject({ seller_acme: 'pending', seller_bolt: 'pending', null: 'accepted' });
    expect((await t.call('GET', '/api/v1/orders/ord_nothing/seller-orders')).status).toBe(404);
  });

  it('the order page shows the seller orders, and an operator gets accept/reject per pending seller; a viewer gets none', async () => {
    const page = await getPage(t, `/orders/${orderId}`, operator.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-seller-order-seller="seller_acme" data-seller-order-status="pending"');
    expect(page.text).toContain('data-seller-order-seller="first_party" data-seller-order-status="accepted"');
    expect(page.text).toContain('data-seller-answer="seller_acme"');
    expect(page.text).toContain('data-seller-answer="seller_bolt"');
    const watching = await getPage(t, `/orders/${orderId}`, viewer.cookie);
    expect(watching.text).toContain('data-seller-order-seller="seller_bolt"');
    expect(watching.text).not.toContain('data-seller-answer');
  });

  it('after one seller accepts, its part reads accepted in the live fragment and its buttons go', async () => {
    const delivered = await t.call('POST', `/api/v1/orders/${orderId}/events`, { event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' } });
    expect(delivered.body.delivered, delivered.text).toBe(true);
    const live = await getPage(t, `/orders/${orderId}/live`, operator.cookie);
    expect(live.text).toContain('data-seller-order-seller="seller_acme" data-seller-order-status="accepted"');
    expect(live.text).not.toContain('data-seller-answer="seller_acme"');
    expect(live.text).toContain('data-seller-answer="seller_bolt"');
  });
});

// The other built-in flows end to end through the runtime API: a happy path and the main failure path each
// (issue "The other templates"; spec "Outbound events", "Cancel (what gets undone)").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommerceHarness, DAY, type CommerceHarness } from './commerce-harness.js';
import { insertOrder, newOrderId } from '../../../src/orders/new-order.js';
import { storeOrderDocument } from '../../../src/orders/order-documents.js';

let h: CommerceHarness;
beforeAll(async () => {
  h = await startCommerceHarness();
});
afterAll(async () => {
  await h?.close();
});

const NYC = { line1: '1 Main St', city: 'New York', postalCode: '10001', country: 'US', latitude: 40.73, longitude: -73.99 };
const SF = { line1: '500 Market St', city: 'San Francisco', postalCode: '94105', country: 'US', latitude: 37.79, longitude: -122.4 };

describe('tpl-storefront-order (b2c)', () => {
  const b2c = (meta: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    model: 'b2c',
    channel: 'web',
    meta: { shipTo: NYC, ...meta },
    input: { model: 'b2c', fulfillment: { method: 'ship' } },
    ...extra,
  });

  it('prices, scores, authorizes, reserves the nearest stock, ships, captures, issues digital codes, confirms', async () => {
    const id = await h.order('tpl-storefront-order', [{ sku: 'MUG-1', qty: 2 }, { sku: 'GIFT-50', qty: 1 }], b2c());
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.order.total).toBe(75);
    expect(s.nodes.reserve.output.reservations).toEqual([expect.objectContaining({ sku: 'MUG-1', locationId: 'store_soho', qty: 2 })]);
    expect(s.nodes.capture.output).toMatchObject({ captured: 75, released: 0 });
    const codes = await h.rows("SELECT sku, status FROM digital_codes WHERE order_id = $1", [id]);
    expect(codes).toEqual([{ sku: 'GIFT-50', status: 'issued' }]);
    expect(s.nodes.digital.output.codes[0].code).toMatch(/^\*{4}-\*{4}-\*{4}-[A-Z0-9]{4}$/);
    expect(await h.rows('SELECT recipient FROM notifications WHERE order_id = $1', [id])).toEqual([{ recipient: 'buyer@example.com' }]);
    expect(await h.outbox(id)).toEqual(expect.arrayContaining(['order.paid', 'order.shipped', 'order.delivered', 'order.completed']));
  });

  it('out of stock: reservation fails without retry; the authorization is voided', async () => {
    const id = await h.order('tpl-storefront-order', [{ sku: 'MUG-1', qty: 1 }], b2c({ simulate: 'out_of_stock' }));
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Out of stock: MUG-1 (simulated out_of_stock)');
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
  });

  it('more than any location holds is out of stock too', async () => {
    const id = await h.order('tpl-storefront-order', [{ sku: 'CHAIR-ERG', qty: 50 }], b2c());
    expect((await h.state(id)).reason).toBe('Out of stock: CHAIR-ERG x 50');
  });

  it('a PO box ship-to is declined by the no_po_box rule before any payment', async () => {
    const id = await h.order('tpl-storefront-order', [{ sku: 'MUG-1', qty: 1 }], b2c({ shipTo: 'PO Box 123, Springfield' }));
    const s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('Cannot ship to a PO box');
    expect(s.nodes.po_box.output).toEqual({ rule: 'no_po_box', passed: false, reason: 'Ships to a PO box' });
    expect(await h.authorizations(id)).toEqual([]);
  });
});

describe('tpl-omnichannel-order (d2c)', () => {
  it('routes a shipment to the nearest store with stock and ships it', async () => {
    const id = await h.order('tpl-omnichannel-order', [{ sku: 'MUG-1', qty: 1 }], {
      model: 'd2c', channel: 'web', meta: { shipTo: SF }, input: { fulfillment: { method: 'ship' } },
    });
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.route.output).toMatchObject({ method: 'ship', locationId: 'store_sf' });
    expect(s.nodes.is_pickup.branches).toEqual(['false']);
    expect(s.nodes.ship.output.shipments[0].locationId).toBe('store_sf');
  });

  it('pickup: staged at the store with a code, handed over on customer.collected, then captured', async () => {
    const before = await h.stock('TEE-BLK-M', 'store_soho');
    const id = await h.order('tpl-omnichannel-order', [{ sku: 'TEE-BLK-M', qty: 2 }], {
      model: 'd2c', channel: 'mobile', input: { fulfillment: { method: 'pickup', locationId: 'store_soho' } },
    });
    let s = await h.state(id);
    expect(s.status).toBe('waiting');
    expect(s.vars.pickup).toMatchObject({ locationId: 'store_soho', code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/) });
    expect(await h.stock('TEE-BLK-M', 'store_soho')).toEqual({ onHand: before.onHand, reserved: before.reserved + 2 });
    expect(await h.outbox(id)).toEqual(['order.ready_for_pickup']);
    await h.engine.runtime.deliverEvent(id, 'customer.collected', { code: s.vars.pickup.code });
    s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(await h.stock('TEE-BLK-M', 'store_soho')).toEqual({ onHand: before.onHand - 2, reserved: before.reserved });
    expect(await h.rows('SELECT status FROM pickups WHERE order_id = $1', [id])).toEqual([{ status: 'handed_over' }]);
    expect(await h.outbox(id)).toEqual(expect.arrayContaining(['order.delivered', 'order.paid', 'order.completed']));
  });

  it('not collected within 7 days: cancelled; pickup cancelled, units released, authorization voided', async () => {
    const before = await h.stock('TEE-BLK-M', 'store_soho');
    const id = await h.order('tpl-omnichannel-order', [{ sku: 'TEE-BLK-M', qty: 1 }], {
      model: 'd2c', channel: 'web', input: { fulfillment: { method: 'pickup', locationId: 'store_soho' } },
    });
    await h.t.advance(7 * DAY);
    const s = await h.state(id);
    expect(s.status).toBe('cancelled');
    expect(s.reason).toBe('Not collected within 7 days');
    expect(await h.rows('SELECT status FROM pickups WHERE order_id = $1', [id])).toEqual([{ status: 'cancelled' }]);
    expect(await h.stock('TEE-BLK-M', 'store_soho')).toEqual(before);
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
  });
});

describe('tpl-b2b-order (b2b)', () => {
  const b2b = (customerId: string, extra: Record<string, unknown> = {}) => ({ model: 'b2b', channel: 'api', customerId, contactEmail: null, ...extra });

  it('reads lines from a PO document, prices, checks credit, ships and invoices on account (net 30)', async () => {
    const id = await h.order('tpl-b2b-order', [], b2b('cust_corp', {
      input: { documentText: 'PURCHASE ORDER 7781\n\nSKU | Description | Qty | Unit Price\n---|---|---|---\nMUG-1 | Stoneware mug | 10 | 11.00\nTEE-BLK-M | Black tee | 5 |\n\nThanks, Globex' },
    }));
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.extract.output.lines).toEqual([
      { sku: 'MUG-1', qty: 10, unitPrice: 11, name: 'Stoneware mug' },
      { sku: 'TEE-BLK-M', qty: 5, unitPrice: null, name: 'Black tee' },
    ]);
    expect(s.order.total).toBe(230); // 10 x 11.00 (kept) + 5 x 24.00 (catalogue)
    expect(s.nodes.size.branches).toEqual(['ok']);
    const [inv] = await h.rows('SELECT number, status, amount_minor::int AS amount, due_at - issued_at AS terms FROM invoices WHERE order_id = $1', [id]);
    expect(inv).toMatchObject({ status: 'open', amount: 23000 });
    expect(Number(inv.terms)).toBe(30 * DAY);
    expect(inv.number).toMatch(/^INV-\d+$/);
    expect(await h.outbox(id)).toEqual(expect.arrayContaining(['order.shipped', 'order.invoiced', 'order.completed']));
  });

  it('reads the inbound document that order creation stored (order_documents), not only input.documentText', async () => {
    const db = h.t.service.ctx.db;
    const id = newOrderId();
    const now = h.t.service.ctx.clock.now();
    await insertOrder(db, {
      id, flowId: 'tpl-b2b-order', flowVersion: await h.version('tpl-b2b-order'), model: 'b2b', channel: 'email', externalId: null, title: 'Emailed PO',
      customerId: 'cust_corp', contactEmail: null, currency: 'EUR', fxRate: 0.92, subtotal: 0, tax: 0, total: 0,
      input: { model: 'b2b', channel: 'email' }, meta: {}, vars: {}, lines: [],
    }, now);
    await storeOrderDocument(db, { orderId: id, kind: 'inbound', name: 'inbound.txt', contentType: 'text/plain', body: 'Please send 4 x MUG-1. Thanks!' }, now);
    await h.engine.runtime.start(id);
    const s = await h.state(id);
    expect(s.nodes.extract.output.lines).toEqual([{ sku: 'MUG-1', qty: 4, unitPrice: null, name: null }]);
    expect(s.order.total).toBe(46); // 12.50 USD = 11.50 EUR at 0.92, x 4
    expect(s.status).toBe('completed');
  });

  it('above $5,000 needs sales approval; a rejection declines the order', async () => {
    const id = await h.order('tpl-b2b-order', [{ sku: 'CHAIR-ERG', qty: 20 }], b2b('cust_corp'));
    let s = await h.state(id);
    expect(s.waits).toEqual([expect.objectContaining({ nodeId: 'sales_approval', assignee: 'sales-manager', amount: 6980 })]);
    await h.engine.runtime.decideApproval(id, 'sales_approval', 'rejected', 'sam@example.com', 'too many');
    s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('Rejected by sales');
  });

  it('over the credit limit (open invoices + this order) is declined', async () => {
    const id = await h.order('tpl-b2b-order', [{ sku: 'LAMP-OAK', qty: 300, unitPriceMinor: 9000 }], b2b('cust_corp'));
    const s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('Credit limit exceeded');
    // Open: the earlier tests' invoices, 230.00 USD and 46.00 EUR (50.00 USD at 0.92).
    expect(s.nodes.credit.output.reason).toBe('Credit limit of $25000.00 exceeded: open $280.00 + this order $27000.00');
  });

  it('cancel after invoicing reverses the open invoice (spec "Cancel": on-account invoice charges)', async () => {
    const v = await h.publish('test-b2b-wait', {
      nodes: [
        { id: 'start', type: 'trigger.api' }, { id: 'price', type: 'commerce.price' }, { id: 'invoice', type: 'commerce.invoice' },
        { id: 'wait', type: 'wait.event', params: { event: 'never' } }, { id: 'done', type: 'end', params: { outcome: 'completed' } },
      ],
      edges: [{ from: 'start', to: 'price' }, { from: 'price', to: 'invoice' }, { from: 'invoice', to: 'wait' }, { from: 'wait', to: 'done', branch: 'received' }, { from: 'wait', to: 'done', branch: 'timeout' }],
    });
    const id = await h.startOrder('test-b2b-wait', v, { model: 'b2b', customerId: 'cust_corp', lines: [{ sku: 'MUG-1', name: null, qty: 1, unitPriceMinor: null, sellerId: null, locationId: null }] });
    await h.engine.runtime.cancel(id, 'Customer withdrew the PO');
    expect(await h.rows('SELECT status FROM invoices WHERE order_id = $1', [id])).toEqual([{ status: 'reversed' }]);
  });
});

describe('tpl-subscription', () => {
  it('charges each period and continues as new: generation rises, order.paid each period', async () => {
    const id = await h.order('tpl-subscription', [{ sku: 'GIFT-50', qty: 1 }], { model: 'subscription', channel: 'web', vars: { period: '7d' } });
    let s = await h.state(id);
    expect(s.status).toBe('waiting');
    expect(s.generation).toBe(1);
    expect(s.nodes.wait_period.status).toBe('waiting');
    await h.t.advance(7 * DAY);
    s = await h.state(id);
    expect(s.generation).toBe(2);
    expect(s.status).toBe('waiting');
    const charges = await h.rows('SELECT generation, amount_minor::int AS amount, method FROM payment_charges WHERE order_id = $1 ORDER BY generation', [id]);
    expect(charges).toEqual([
      { generation: 1, amount: 5000, method: 'stored_card' },
      { generation: 2, amount: 5000, method: 'stored_card' },
    ]);
    expect((await h.outbox(id)).filter((x) => x === 'order.paid')).toHaveLength(2);
    expect(await h.rows('SELECT count(*)::int AS n FROM digital_codes WHERE order_id = $1', [id])).toEqual([{ n: 2 }]);
  });

  it('a declined charge tells the buyer and ends the subscription failed', async () => {
    const id = await h.order('tpl-subscription', [{ sku: 'MUG-1', qty: 1 }], { model: 'subscription', meta: { simulate: 'card_declined' } });
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Subscription payment failed');
    expect(s.nodes.charge.branches).toEqual([]);
    expect(s.nodes.payment_failed_notice.status).toBe('succeeded');
    expect(await h.rows('SELECT count(*)::int AS n FROM payment_charges WHERE order_id = $1', [id])).toEqual([{ n: 0 }]);
  });
});

describe('tpl-purchase-request (procurement)', () => {
  it('approved request: purchase order issued, goods receipt books stock in', async () => {
    const before = await h.stock('LAMP-OAK', 'loc_main');
    const id = await h.order('tpl-purchase-request', [], {
      model: 'procurement', channel: 'email', customerId: null, input: { documentText: 'Hi team,\nplease order\n- 3 x LAMP-OAK @ 80.00\nThanks', fulfillment: { method: 'ship', locationId: 'loc_main' } },
    });
    let s = await h.state(id);
    expect(s.waits).toEqual([expect.objectContaining({ nodeId: 'approval', assignee: 'procurement', amount: 240 })]);
    await h.engine.runtime.decideApproval(id, 'approval', 'approved', 'pat@example.com', null);
    s = await h.state(id);
    expect(s.nodes.purchase_order.output).toMatchObject({ supplier: 'Preferred supplier', amount: 240, locationId: 'loc_main' });
    expect(await h.rows('SELECT status FROM purchase_orders WHERE order_id = $1', [id])).toEqual([{ status: 'issued' }]);
    await h.engine.runtime.deliverEvent(id, 'goods.received', { note: 'all there' });
    s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(await h.stock('LAMP-OAK', 'loc_main')).toEqual({ onHand: before.onHand + 3, reserved: before.reserved });
    expect(await h.rows('SELECT status FROM purchase_orders WHERE order_id = $1', [id])).toEqual([{ status: 'received' }]);
  });

  it('rejected request is declined; goods never received fails and cancels the purchase order', async () => {
    const rejected = await h.order('tpl-purchase-request', [{ sku: 'MUG-1', qty: 5 }], { model: 'procurement' });
    await h.engine.runtime.decideApproval(rejected, 'approval', 'rejected', 'pat@example.com', null);
    expect((await h.state(rejected)).reason).toBe('Rejected by procurement');

    const late = await h.order('tpl-purchase-request', [{ sku: 'MUG-1', qty: 5 }], { model: 'procurement' });
    await h.engine.runtime.decideApproval(late, 'approval', 'approved', 'pat@example.com', null);
    await h.t.advance(30 * DAY);
    const s = await h.state(late);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Goods not received within 30 days');
    expect(await h.rows('SELECT status FROM purchase_orders WHERE order_id = $1', [late])).toEqual([{ status: 'cancelled' }]);
  });
});

describe('tpl-pos-sale', () => {
  it('charges the card present and hands over at once; stock leaves the till\'s store', async () => {
    const before = await h.stock('MUG-1', 'store_sf');
    const id = await h.order('tpl-pos-sale', [{ sku: 'MUG-1', qty: 2 }], { model: 'b2c', channel: 'pos', customerId: null, input: { fulfillment: { method: 'pickup', locationId: 'store_sf' } } });
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.charge.output).toMatchObject({ amount: 25, method: 'card_present' });
    expect(await h.stock('MUG-1', 'store_sf')).toEqual({ onHand: before.onHand - 2, reserved: before.reserved });
    expect(await h.outbox(id)).toEqual(expect.arrayContaining(['order.paid', 'order.delivered', 'order.completed']));
  });

  it('a declined card declines the sale and leaves the stock alone', async () => {
    const before = await h.stock('MUG-1', 'store_sf');
    const id = await h.order('tpl-pos-sale', [{ sku: 'MUG-1', qty: 1 }], { model: 'b2c', channel: 'pos', meta: { simulate: 'card_declined' }, input: { fulfillment: { method: 'pickup', locationId: 'store_sf' } } });
    const s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('Card declined at the till');
    expect(await h.stock('MUG-1', 'store_sf')).toEqual(before);
  });
});

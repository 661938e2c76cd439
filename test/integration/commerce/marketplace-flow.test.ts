// The built-in marketplace flow through the runtime API: every row of the spec's marketplace tables
// ("Marketplace acceptance loop", "Split node branches", "Seller-accept node branches", "Seller order statuses",
// the marketplace rows of "Order statuses", "Payout computation", "Outbound events").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCommerceHarness, DAY, type CommerceHarness } from './commerce-harness.js';
import { INVALID_ANSWER_MESSAGE } from '../../../src/domain/seller-accept.js';
import { orderView } from '../../../src/engine/run/step-view.js';
import { toRunRow, type RunDbRow } from '../../../src/engine/runtime/run-row.js';
import { ordersSubject } from '../../../src/orders/order-subject.js';
import { SliceFacts } from '../../../src/engine/run/slice-facts.js';
import { commerceSplitBySeller } from '../../../src/nodes/commerce-split-by-seller.js';
import { commerceStepPorts } from '../../../src/commerce/step-ports/commerce-step-ports.js';
import { stepContext } from '../../unit/nodes/step-context.js';

let h: CommerceHarness;
beforeAll(async () => {
  h = await startCommerceHarness();
});
afterAll(async () => {
  await h?.close();
});

const FLOW = 'tpl-marketplace-order';
// Demo catalogue: PAN-CAST-10 $45 (seller_acme, 12%), TENT-2P $199 (seller_bolt, 10%), PRINT-A3 $28 (seller_nimbus,
// auto-accepts, 15%), VASE-OLD (seller_dormant, inactive), MUG-1 $12.50 first party. Demo tax rate 0.
const ACME = { sku: 'PAN-CAST-10', qty: 2 }; // 90.00
const BOLT = { sku: 'TENT-2P', qty: 1 }; // 199.00
const NIMBUS = { sku: 'PRINT-A3', qty: 3 }; // 84.00
const OWN = { sku: 'MUG-1', qty: 2 }; // 25.00

const answer = (id: string, sellerId: string | undefined, decision: string, reason?: string) =>
  h.engine.runtime.deliverEvent(id, 'seller.responded', { ...(sellerId ? { sellerId } : {}), decision, ...(reason ? { reason } : {}) });

describe('acceptance', () => {
  it('accept all: split awaiting, notify pending sellers, both accept -> reserve, ship, capture all, payouts after the return window', async () => {
    const id = await h.order(FLOW, [ACME, BOLT, OWN]);
    let s = await h.state(id);
    expect(s.status).toBe('waiting');
    expect(s.nodes.split.branches).toEqual(['awaiting']);
    expect(s.vars.sellers).toEqual(['seller_acme', 'seller_bolt']);
    expect(s.vars.pendingSellers).toEqual(['seller_acme', 'seller_bolt']);
    expect(await h.sellerOrders(id)).toMatchObject({
      seller_acme: { status: 'pending', subtotal: 9000 },
      seller_bolt: { status: 'pending', subtotal: 19900 },
      first_party: { status: 'accepted', subtotal: 2500 },
    });
    const notes = await h.rows('SELECT audience, recipient FROM notifications WHERE order_id = $1 ORDER BY recipient', [id]);
    expect(notes).toEqual([{ audience: 'seller', recipient: 'seller_acme' }, { audience: 'seller', recipient: 'seller_bolt' }]);
    expect(s.waits).toEqual([expect.objectContaining({ nodeId: 'wait_sellers', event: 'seller.responded' })]);
    expect(s.waits[0].deadline - s.waits[0].since).toBe(2 * DAY);

    expect(await answer(id, 'seller_acme', 'accepted')).toEqual({ delivered: true, nodeId: 'wait_sellers' });
    s = await h.state(id);
    expect(s.nodes.record_answer.branches).toEqual(['pending']);
    expect(s.vars.pendingSellers).toEqual(['seller_bolt']);
    await answer(id, 'seller_bolt', 'accepted');
    s = await h.state(id);
    expect(s.nodes.record_answer.branches).toEqual(['pending', 'accepted']);
    expect(s.status).toBe('waiting'); // the return window
    expect(s.order.total).toBe(314);
    expect(await h.authorizations(id)).toEqual([{ status: 'captured', amount: 31400, captured: 31400, released: 0 }]);
    expect(s.nodes.ship.output.shipments.length).toBeGreaterThan(0);
    expect(await h.rows('SELECT status FROM payouts WHERE order_id = $1', [id])).toEqual([]);

    await h.t.advance(14 * DAY);
    s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.vars.payouts).toEqual([
      { sellerId: 'seller_acme', net: 79.2 },
      { sellerId: 'seller_bolt', net: 179.1 },
    ]);
    expect(s.vars.commission).toBe(30.7);
    expect(await h.outbox(id)).toEqual(expect.arrayContaining(['order.paid', 'order.shipped', 'order.payout_scheduled', 'order.completed']));
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'accepted' }, seller_bolt: { status: 'accepted' } });

    // Contract section 4 routes (viewer): the order's payouts and a seller's seller orders.
    const payouts = await h.t.call('GET', `/api/v1/orders/${id}/payouts`);
    expect(payouts.status).toBe(200);
    expect(payouts.body.payouts).toEqual([
      expect.objectContaining({ sellerId: 'seller_acme', gross: 90, refunded: 0, commission: 10.8, net: 79.2, status: 'scheduled', currency: 'USD' }),
      expect.objectContaining({ sellerId: 'seller_bolt', gross: 199, refunded: 0, commission: 19.9, net: 179.1, status: 'scheduled' }),
    ]);
    const sellerOrders = await h.t.call('GET', '/api/v1/sellers/seller_acme/orders');
    expect(sellerOrders.status).toBe(200);
    expect(sellerOrders.body.sellerOrders).toContainEqual(
      expect.objectContaining({ orderId: id, sellerId: 'seller_acme', subtotal: 90, status: 'accepted', reason: null, lines: [expect.objectContaining({ sku: 'PAN-CAST-10', qty: 2, unitPrice: 45 })] }),
    );
    expect((await h.t.call('GET', '/api/v1/sellers/seller_nobody/orders')).status).toBe(404);
    expect((await h.t.call('GET', '/api/v1/orders/ord_nope/payouts')).status).toBe(404);
    expect((await h.t.call('GET', `/api/v1/orders/${id}/payouts`, undefined, { token: null })).status).toBe(401);
  });

  it('ship books one shipment per ship-from location and consumes each reservation into the shipment of its location (spec "Ship")', async () => {
    const id = await h.order(FLOW, [ACME, BOLT, OWN]);
    await answer(id, 'seller_acme', 'accepted');
    await answer(id, 'seller_bolt', 'accepted');
    const s = await h.state(id);
    const shipments = s.nodes.ship.output.shipments as { id: string; locationId: string; lines: { lineNo: number }[] }[];
    expect(shipments.length).toBeGreaterThan(1); // parcels from more than one location, so the links can go wrong
    const reservations = await h.rows(
      `SELECT r.line_no, r.location_id, r.status, r.shipment_id, s.location_id AS shipped_from
         FROM stock_reservations r LEFT JOIN shipments s ON s.id = r.shipment_id WHERE r.order_id = $1 ORDER BY r.line_no`,
      [id],
    );
    expect(reservations.length).toBe(3);
    for (const r of reservations) {
      expect(r).toMatchObject({ status: 'consumed', shipped_from: r.location_id });
      const shipment = shipments.find((x) => x.id === r.shipment_id)!;
      expect(shipment.lines.map((l) => l.lineNo)).toContain(r.line_no);
    }
    expect(new Set(reservations.map((r) => r.shipment_id)).size).toBe(shipments.length);
  });

  it('partial: a rejection drops that seller\'s lines, re-totals, sets vars.rejectedSellers; capture takes the lesser amount and releases the rest', async () => {
    const id = await h.order(FLOW, [ACME, BOLT, OWN]);
    await answer(id, 'seller_bolt', 'rejected', 'Out of tents');
    await answer(id, 'seller_acme', 'accepted');
    const s = await h.state(id);
    expect(s.nodes.record_answer.branches).toContain('partial');
    expect(s.vars.rejectedSellers).toEqual(['seller_bolt']);
    expect(s.order.total).toBe(115); // 90 + 25, tax 0
    expect(s.order.lines.find((l: any) => l.sku === 'TENT-2P').dropped).toBe(true);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_bolt: { status: 'rejected', reason: 'Out of tents' }, seller_acme: { status: 'accepted' } });
    // Capture equals the lesser of the authorization (314.00) and the re-totaled order (115.00).
    expect(await h.authorizations(id)).toEqual([{ status: 'captured', amount: 31400, captured: 11500, released: 19900 }]);
    expect(s.nodes.capture.output).toMatchObject({ authorized: 314, captured: 115, released: 199 });
    // Only the accepted lines shipped.
    expect(s.nodes.ship.output.shipments.flatMap((x: any) => x.lines.map((l: any) => l.sku)).sort()).toEqual(['MUG-1', 'PAN-CAST-10']);
    await h.t.advance(14 * DAY);
    const done = await h.state(id);
    expect(done.status).toBe('completed');
    expect(done.vars.payouts).toEqual([{ sellerId: 'seller_acme', net: 79.2 }]);
  });

  it('all reject: failed "No seller accepted", authorization voided, rejected seller orders stay rejected', async () => {
    const id = await h.order(FLOW, [ACME, BOLT]);
    await answer(id, 'seller_acme', 'rejected');
    await answer(id, 'seller_bolt', 'rejected', 'No stock');
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('No seller accepted');
    expect(s.rollback).toEqual({ outcome: 'failed', error: null });
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'rejected' }, seller_bolt: { status: 'rejected', reason: 'No stock' } });
    expect(await h.outbox(id)).toContain('order.failed');
  });

  it('no answer: after 2 days the pending sellers are rejected with reason "No response"', async () => {
    const id = await h.order(FLOW, [ACME, BOLT]);
    await h.t.advance(2 * DAY - 60_000);
    expect((await h.state(id)).status).toBe('waiting');
    await h.t.advance(60_000);
    const s = await h.state(id);
    expect(s.nodes.expire_sellers.branches).toEqual(['rejected']);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('No seller accepted');
    expect(await h.sellerOrders(id)).toMatchObject({
      seller_acme: { status: 'rejected', reason: 'No response' },
      seller_bolt: { status: 'rejected', reason: 'No response' },
    });
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
  });

  it('no answer from one seller after another accepted: partial, the silent one rejected "No response"', async () => {
    const id = await h.order(FLOW, [ACME, BOLT]);
    await answer(id, 'seller_acme', 'accepted');
    await h.t.advance(2 * DAY);
    const s = await h.state(id);
    expect(s.nodes.expire_sellers.branches).toEqual(['partial']);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'accepted' }, seller_bolt: { status: 'rejected', reason: 'No response' } });
    expect(s.order.total).toBe(90);
    expect(s.nodes.capture.output).toMatchObject({ captured: 90, released: 199 });
  });

  it('10 passes used with a seller still pending: failed "Sellers did not answer", rolled back', async () => {
    const id = await h.order(FLOW, [ACME, BOLT]);
    await answer(id, 'seller_acme', 'accepted');
    // Repeated answers keep bolt pending; each uses one pass.
    for (let i = 0; i < 8; i++) expect((await answer(id, 'seller_acme', 'accepted')).delivered).toBe(true);
    let s = await h.state(id);
    expect(s.status).toBe('waiting');
    expect(s.nodes.acceptance_loop.output).toEqual({ pass: 10, maxPasses: 10 });
    await answer(id, 'seller_nimbus', 'accepted'); // not a seller of this order: changes nothing
    s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Sellers did not answer');
    expect(s.nodes.acceptance_loop.branches).toContain('exhausted');
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'cancelled' }, seller_bolt: { status: 'cancelled' } });
  });

  it('repeated answer: an accepted or rejected part does not change; only pending parts do', async () => {
    const id = await h.order(FLOW, [ACME, BOLT]);
    await answer(id, 'seller_acme', 'accepted');
    await answer(id, 'seller_acme', 'rejected', 'changed my mind');
    let s = await h.state(id);
    expect(s.nodes.record_answer.output).toMatchObject({ changed: [], pendingSellers: ['seller_bolt'] });
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'accepted', reason: null }, seller_bolt: { status: 'pending' } });
    await answer(id, 'seller_bolt', 'rejected');
    await answer(id, 'seller_bolt', 'accepted'); // nobody waits any more (return window): not delivered
    s = await h.state(id);
    expect(s.nodes.record_answer.branches).toContain('partial');
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'accepted' }, seller_bolt: { status: 'rejected' } });
  });

  it('a second answer arriving while no node waits is not delivered', async () => {
    const id = await h.order(FLOW, [NIMBUS]);
    expect(await answer(id, 'seller_nimbus', 'accepted')).toEqual({ delivered: false, waitingFor: [] });
  });

  it('malformed seller.responded (no sellerId, or no valid decision) fails the step and rolls back', async () => {
    for (const payload of [{ decision: 'accepted' }, { sellerId: 'seller_acme', decision: 'maybe' }]) {
      const id = await h.order(FLOW, [ACME, BOLT]);
      await h.engine.runtime.deliverEvent(id, 'seller.responded', payload);
      const s = await h.state(id);
      expect(s.status).toBe('failed');
      expect(s.reason).toBe(INVALID_ANSWER_MESSAGE);
      expect(s.nodes.record_answer.status).toBe('failed');
      expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
      expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'cancelled' }, seller_bolt: { status: 'cancelled' } });
    }
  });

  it('auto-accepting seller: accepted at the split, no notification, no wait', async () => {
    const id = await h.order(FLOW, [NIMBUS, OWN]);
    const s = await h.state(id);
    expect(s.nodes.split.branches).toEqual(['accepted']);
    expect(s.vars.pendingSellers).toEqual([]);
    expect(s.nodes.notify_sellers.status).toBe('pending');
    expect(await h.sellerOrders(id)).toMatchObject({ seller_nimbus: { status: 'accepted' }, first_party: { status: 'accepted' } });
    await h.t.advance(14 * DAY);
    const done = await h.state(id);
    expect(done.status).toBe('completed');
    expect(done.nodes.notify_sellers.status).toBe('skipped');
    expect(done.vars.payouts).toEqual([{ sellerId: 'seller_nimbus', net: 71.4 }]); // 84 - 15%
  });

  it('first-party-only order: no acceptance, no payout, no order.payout_scheduled', async () => {
    const id = await h.order(FLOW, [OWN]);
    await h.t.advance(14 * DAY);
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.wait_sellers.status).toBe('skipped');
    expect(s.vars.payouts).toEqual([]);
    expect(s.vars.commission).toBe(0);
    expect(await h.rows('SELECT * FROM payouts WHERE order_id = $1', [id])).toEqual([]);
    expect(await h.outbox(id)).not.toContain('order.payout_scheduled');
    expect((await h.t.call('GET', `/api/v1/orders/${id}/payouts`)).body).toEqual({ payouts: [] });
  });

  it('the return window comes from the workspace (returnWindowDays)', async () => {
    await h.rows('UPDATE workspace SET return_window_days = 3');
    try {
      const id = await h.order(FLOW, [NIMBUS]);
      expect((await h.state(id)).vars.returnWindow.days).toBe(3);
      await h.t.advance(3 * DAY - 60_000);
      expect((await h.state(id)).status).toBe('waiting');
      await h.t.advance(60_000);
      expect((await h.state(id)).status).toBe('completed');
    } finally {
      await h.rows('UPDATE workspace SET return_window_days = 14');
    }
  });
});

describe('split failures', () => {
  it('an inactive seller fails the split without retry; the order rolls back (authorization voided)', async () => {
    const id = await h.order(FLOW, [OWN, { sku: 'VASE-OLD', qty: 1 }]);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Seller seller_dormant is inactive');
    expect(s.timeline.filter((x: any) => x.kind === 'node.retry')).toEqual([]);
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
    expect(await h.rows('SELECT * FROM seller_orders WHERE order_id = $1', [id])).toEqual([]);
  });

  it('an unknown seller on a line fails the split the same way', async () => {
    const id = await h.order(FLOW, [{ sku: 'MUG-1', qty: 1, sellerId: 'seller_ghost' }]);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Unknown seller seller_ghost');
  });

  it('running the split again changes nothing (one seller order per order and seller)', async () => {
    const id = await h.order(FLOW, [ACME, BOLT]);
    await answer(id, 'seller_acme', 'accepted');
    const db = h.t.service.ctx.db;
    const result = await db.tx(async (tx) => {
      const run = toRunRow((await tx.query<RunDbRow>('SELECT * FROM orders WHERE id = $1', [id])).rows[0], ordersSubject);
      const order = orderView(run);
      // The step's ports over this transaction, as a slice builds them (reference data read straight, no cache).
      const ports = commerceStepPorts({ reader: tx, writer: tx, checkedWriter: tx, reference: (_table, keys, load) => load([...keys]), order: new SliceFacts(id, run.facts) });
      return commerceSplitBySeller.run!(stepContext({}, { nodeId: 'split', attempt: 2, order, ports, clock: h.t.service.ctx.clock }));
    });
    expect(result).toMatchObject({ branch: 'awaiting', vars: { sellers: ['seller_acme', 'seller_bolt'], pendingSellers: ['seller_bolt'] } });
    expect(await h.rows('SELECT count(*)::int AS n FROM seller_orders WHERE order_id = $1', [id])).toEqual([{ n: 2 }]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'accepted' }, seller_bolt: { status: 'pending' } });
  });

  it('a line sellerId wins over the product seller', async () => {
    const id = await h.order(FLOW, [{ sku: 'PAN-CAST-10', qty: 1, sellerId: 'seller_nimbus' }]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_nimbus: { status: 'accepted', subtotal: 4500 } });
  });
});

describe('risk and payment', () => {
  it('a high fraud score goes to the Trust and safety approval; a refusal declines the order', async () => {
    const id = await h.order(FLOW, [ACME], { meta: { simulate: 'high_risk' } });
    let s = await h.state(id);
    expect(s.nodes.fraud.output).toMatchObject({ score: 95, high: true });
    expect(s.waits).toEqual([expect.objectContaining({ nodeId: 'trust_review', kind: 'approval', assignee: 'trust-and-safety' })]);
    await h.engine.runtime.decideApproval(id, 'trust_review', 'rejected', 'ann@example.com', 'stolen card');
    s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('Declined by trust and safety');
    expect(await h.authorizations(id)).toEqual([]);
    expect(await h.outbox(id)).toEqual(['order.declined']);
  });

  it('an approved high score continues to authorization', async () => {
    const id = await h.order(FLOW, [NIMBUS], { meta: { simulate: 'high_risk' } });
    await h.engine.runtime.decideApproval(id, 'trust_review', 'approved', 'ann@example.com', null);
    const s = await h.state(id);
    expect(s.nodes.authorize.status).toBe('succeeded');
    expect(s.status).toBe('waiting');
  });

  it('a declined card fails the order at authorization, not retried', async () => {
    const id = await h.order(FLOW, [ACME], { meta: { simulate: 'card_declined' } });
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Card declined (simulated card_declined)');
    expect(s.nodes.authorize.status).toBe('failed');
    expect(await h.authorizations(id)).toEqual([]); // the declined attempt left no row (its savepoint rolled back)
  });
});

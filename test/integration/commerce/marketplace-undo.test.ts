// Undo in marketplace orders: cancel at each stage undoes exactly the spec's "Cancel (what gets undone)" list;
// rollback after ship_error / capture_error; payouts reversed unless paid ("Payout statuses"); payout math with
// refunds and in JPY through a run ("Payout computation").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e, n } from '../../support/engine-harness.js';
import { startCommerceHarness, DAY, type CommerceHarness } from './commerce-harness.js';

let h: CommerceHarness;
beforeAll(async () => {
  h = await startCommerceHarness();
  // A marketplace flow that waits after its payout node (the built-in one ends right after it), and a
  // variant that refunds before paying out; `settle` then either times out (completed) or, on
  // `payout.check`, hits a step that fails without retry (rollback).
  const graph = (withRefund: boolean) => ({
    nodes: [
      n('start', 'trigger.api'), n('price', 'commerce.price'), n('authorize', 'commerce.authorize_payment'), n('split', 'commerce.split_by_seller'),
      n('wait_seller', 'wait.event', { event: 'seller.responded', timeout: '2d' }), n('accept', 'commerce.seller_accept', { mode: 'from_event' }),
      n('reserve', 'commerce.reserve_stock'), n('ship', 'commerce.ship'), n('capture', 'commerce.capture_payment'),
      ...(withRefund ? [n('refund', 'commerce.refund', { amountFrom: 'vars.refund', reason: 'Returned' })] : []),
      n('payout', 'commerce.payout'), n('settle', 'wait.event', { event: 'payout.check', timeout: '30d' }), n('boom', 'test.effect', { fail: 'terminal' }),
      n('done', 'end', { outcome: 'completed' }), n('fail', 'end', { outcome: 'failed', reason: 'Seller problem' }),
    ],
    edges: [
      e('start', 'price'), e('price', 'authorize'), e('authorize', 'split'), e('split', 'reserve', 'accepted'), e('split', 'wait_seller', 'awaiting'),
      e('wait_seller', 'accept', 'received'), e('wait_seller', 'fail', 'timeout'),
      e('accept', 'fail', 'pending'), e('accept', 'reserve', 'accepted'), e('accept', 'reserve', 'partial'), e('accept', 'fail', 'rejected'),
      e('reserve', 'ship'), e('ship', 'capture'),
      ...(withRefund ? [e('capture', 'refund'), e('refund', 'payout')] : [e('capture', 'payout')]),
      e('payout', 'settle'), e('settle', 'boom', 'received'), e('settle', 'done', 'timeout'), e('boom', 'done'),
    ],
  });
  await h.publish('test-payout-wait', graph(false));
  await h.publish('test-payout-refund', graph(true));
});
afterAll(async () => {
  await h?.close();
});

const FLOW = 'tpl-marketplace-order';
const ACME = { sku: 'PAN-CAST-10', qty: 2 }; // 90.00, 12%
const BOLT = { sku: 'TENT-2P', qty: 1 }; // 199.00, 10%
const NIMBUS = { sku: 'PRINT-A3', qty: 3 }; // 84.00, auto, 15%
const OWN = { sku: 'MUG-1', qty: 1 }; // 12.50

const answer = (id: string, sellerId: string, decision: string) => h.engine.runtime.deliverEvent(id, 'seller.responded', { sellerId, decision });
const payouts = async (id: string) =>
  Object.fromEntries((await h.rows('SELECT seller_id, status, gross_minor, refunded_minor, commission_minor, net_minor FROM payouts WHERE order_id = $1', [id])).map((r) => [r.seller_id, r]));

describe('cancel at each stage (spec "Cancel (what gets undone)")', () => {
  it('while the Trust and safety approval waits: approval marked cancelled, nothing else to undo', async () => {
    const id = await h.order(FLOW, [ACME], { meta: { simulate: 'high_risk' } });
    await h.engine.runtime.cancel(id, 'Buyer changed their mind');
    const s = await h.state(id);
    expect(s.status).toBe('cancelled');
    expect(s.reason).toBe('Buyer changed their mind');
    expect(s.waits).toEqual([]);
    expect(await h.rows('SELECT status FROM order_waits WHERE order_id = $1', [id])).toEqual([{ status: 'cancelled' }]);
    expect(await h.authorizations(id)).toEqual([]);
    expect(await h.outbox(id)).toEqual(['order.cancelled']);
    await expect(h.engine.runtime.cancel(id, 'again')).rejects.toMatchObject({ kind: 'conflict' });
  });

  it('while sellers are answering: authorization voided, pending and accepted seller orders cancelled, rejected stays rejected', async () => {
    const id = await h.order(FLOW, [ACME, BOLT, OWN]);
    await answer(id, 'seller_acme', 'rejected');
    await h.engine.runtime.cancel(id, 'cancelled over the API');
    const s = await h.state(id);
    expect(s.status).toBe('cancelled');
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided', captured: 0 })]);
    expect(await h.sellerOrders(id)).toMatchObject({
      seller_acme: { status: 'rejected' },
      seller_bolt: { status: 'cancelled' },
      first_party: { status: 'cancelled' },
    });
    expect(await h.rows('SELECT * FROM stock_reservations WHERE order_id = $1', [id])).toEqual([]);
    expect(await h.rows("SELECT * FROM timers WHERE order_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL", [id])).toEqual([]);
  });

  it('during the return window: shipments cancelled and their stock restocked, seller orders cancelled, captured money not refunded', async () => {
    const before = await h.stock('PRINT-A3', 'loc_main');
    const id = await h.order(FLOW, [NIMBUS]);
    let s = await h.state(id);
    expect(s.nodes.wait_returns.status).toBe('waiting');
    expect(await h.stock('PRINT-A3', 'loc_main')).toEqual({ onHand: before.onHand - 3, reserved: before.reserved });
    await h.engine.runtime.cancel(id, 'Lost in transit');
    s = await h.state(id);
    expect(s.status).toBe('cancelled');
    expect(await h.rows('SELECT status FROM shipments WHERE order_id = $1', [id])).toEqual([{ status: 'cancelled' }]);
    expect(await h.stock('PRINT-A3', 'loc_main')).toEqual(before);
    expect(await h.rows('SELECT status FROM stock_reservations WHERE order_id = $1', [id])).toEqual([{ status: 'restocked' }]);
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'captured', captured: 8400 })]);
    expect(await h.rows('SELECT * FROM refunds WHERE order_id = $1', [id])).toEqual([]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_nimbus: { status: 'cancelled' } });
    expect(await h.rows('SELECT * FROM payouts WHERE order_id = $1', [id])).toEqual([]);
  });

  it('after the payout: scheduled payouts reversed, a paid payout left alone', async () => {
    const id = await h.order('test-payout-wait', [ACME, NIMBUS]);
    await answer(id, 'seller_acme', 'accepted');
    expect((await h.state(id)).nodes.settle.status).toBe('waiting');
    expect(await payouts(id)).toMatchObject({ seller_acme: { status: 'scheduled' }, seller_nimbus: { status: 'scheduled' } });
    await h.rows("UPDATE payouts SET status = 'paid', paid_at = 1 WHERE order_id = $1 AND seller_id = 'seller_acme'", [id]);
    await h.engine.runtime.cancel(id, 'Fraud found later');
    expect(await payouts(id)).toMatchObject({ seller_acme: { status: 'paid' }, seller_nimbus: { status: 'reversed' } });
    const api = await h.t.call('GET', `/api/v1/orders/${id}/payouts`);
    expect(api.body.payouts.map((p: any) => [p.sellerId, p.status, p.reversedAt === null])).toEqual([
      ['seller_acme', 'paid', true],
      ['seller_nimbus', 'reversed', false],
    ]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_acme: { status: 'cancelled' }, seller_nimbus: { status: 'cancelled' } });
  });
});

describe('rollback (contract section 5 "Run outcomes")', () => {
  it('ship_error: the shipment fails after its retries; authorization voided, stock released, seller orders cancelled', async () => {
    const before = await h.stock('MUG-1', 'loc_main');
    const id = await h.order(FLOW, [{ sku: 'MUG-1', qty: 4 }, NIMBUS], { meta: { simulate: 'ship_error' } });
    let s = await h.state(id);
    expect(s.status).toBe('running');
    expect(s.nodes.ship.error).toBe('The carrier refused the shipment (simulated ship_error)');
    expect((await h.stock('MUG-1', 'loc_main')).reserved).toBe(before.reserved + 4);
    // Backoff 1 s then 2 s on durable timers; the test clock also runs at real speed, so leave slack.
    await h.t.advance(60_000);
    s = await h.state(id);
    expect(s.status).toBe('rolled_back');
    expect(s.timeline.filter((x: any) => x.kind === 'node.retry')).toHaveLength(2);
    expect(s.nodes.reserve.status).toBe('rolled_back');
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
    expect(await h.stock('MUG-1', 'loc_main')).toEqual(before);
    expect(await h.rows('SELECT status FROM stock_reservations WHERE order_id = $1 ORDER BY sku', [id])).toEqual([{ status: 'released' }, { status: 'released' }]);
    expect(await h.rows('SELECT * FROM shipments WHERE order_id = $1', [id])).toEqual([]);
    expect(await h.sellerOrders(id)).toMatchObject({ seller_nimbus: { status: 'cancelled' }, first_party: { status: 'cancelled' } });
    expect(await h.outbox(id)).toEqual(['order.failed']);
  });

  it('capture_error: capture fails after its retries; shipment cancelled and restocked, authorization voided', async () => {
    const before = await h.stock('PRINT-A3', 'loc_main');
    const id = await h.order(FLOW, [NIMBUS], { meta: { simulate: ['capture_error'] } });
    await h.t.advance(60_000);
    const s = await h.state(id);
    expect(s.status).toBe('rolled_back');
    expect(s.reason).toBe('The payment gateway failed to capture (simulated capture_error)');
    expect(await h.rows('SELECT status FROM shipments WHERE order_id = $1', [id])).toEqual([{ status: 'cancelled' }]);
    expect(await h.stock('PRINT-A3', 'loc_main')).toEqual(before);
    expect(await h.authorizations(id)).toEqual([expect.objectContaining({ status: 'voided' })]);
  });

  it('a failure after the payout reverses scheduled payouts and leaves a paid one alone; the capture is refunded', async () => {
    const id = await h.order('test-payout-wait', [ACME, NIMBUS]);
    await answer(id, 'seller_acme', 'accepted');
    await h.rows("UPDATE payouts SET status = 'paid', paid_at = 1 WHERE order_id = $1 AND seller_id = 'seller_nimbus'", [id]);
    await h.engine.runtime.deliverEvent(id, 'payout.check', {});
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(await payouts(id)).toMatchObject({ seller_acme: { status: 'reversed' }, seller_nimbus: { status: 'paid' } });
    expect(await h.rows("SELECT amount_minor::int, reason FROM refunds WHERE order_id = $1", [id])).toEqual([{ amount_minor: 17400, reason: 'Order rolled back' }]);
    expect(await h.rows('SELECT status FROM shipments WHERE order_id = $1', [id])).toEqual([{ status: 'cancelled' }]);
  });
});

describe('payout computation through a run (spec "Payout computation")', () => {
  it('refunds so far are shared by gross / order total, commission on the rest, rounded to cents', async () => {
    const id = await h.order('test-payout-refund', [ACME, NIMBUS, OWN], { vars: { refund: 33.33 } });
    await answer(id, 'seller_acme', 'accepted');
    const s = await h.state(id);
    expect(s.order.total).toBe(186.5);
    // acme: refunded = 3333 x 9000 / 18650 = 1608.42 -> 1608; commission = 7392 x 0.12 = 887.04 -> 887; net 6505.
    // nimbus: refunded = 3333 x 8400 / 18650 = 1501.19 -> 1501; commission = 6899 x 0.15 = 1034.85 -> 1035; net 5864.
    expect(await payouts(id)).toMatchObject({
      seller_acme: { gross_minor: '9000', refunded_minor: '1608', commission_minor: '887', net_minor: '6505' },
      seller_nimbus: { gross_minor: '8400', refunded_minor: '1501', commission_minor: '1035', net_minor: '5864' },
    });
    expect(s.vars.payouts).toEqual([{ sellerId: 'seller_acme', net: 65.05 }, { sellerId: 'seller_nimbus', net: 58.64 }]);
    expect(s.vars.commission).toBe(19.22);
    expect(await h.outbox(id)).toEqual(expect.arrayContaining(['order.refunded', 'order.payout_scheduled']));
  });

  it('a full refund leaves nothing to pay out (refunded equals gross, never above it)', async () => {
    const id = await h.order('test-payout-refund', [ACME, NIMBUS], { vars: { refund: 10_000 } });
    await answer(id, 'seller_acme', 'accepted');
    expect(await payouts(id)).toMatchObject({
      seller_acme: { gross_minor: '9000', refunded_minor: '9000', commission_minor: '0', net_minor: '0' },
      seller_nimbus: { gross_minor: '8400', refunded_minor: '8400', commission_minor: '0', net_minor: '0' },
    });
    expect(await h.rows('SELECT sum(amount_minor)::int AS total FROM refunds WHERE order_id = $1', [id])).toEqual([{ total: 17400 }]);
  });

  it('JPY has no minor unit: prices, payouts and commission are whole yen', async () => {
    const id = await h.order(FLOW, [NIMBUS], { currency: 'JPY', fxRate: 151.5 });
    await h.t.advance(14 * DAY);
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    // 28 USD x 151.5 = 4242 yen a print; 3 prints 12726 yen; 15% commission 1908.9 -> 1909; net 10817.
    expect(s.order.total).toBe(12726);
    expect(s.vars.payouts).toEqual([{ sellerId: 'seller_nimbus', net: 10817 }]);
    expect(s.vars.commission).toBe(1909);
    expect(await payouts(id)).toMatchObject({ seller_nimbus: { commission_minor: '1909', net_minor: '10817' } });
  });
});

// Ports with real adapters (issue 20, docs/integrations.md): the marketplace flow with the HTTP payment gateway and
// carrier configured in the workspace file completes, rolls back and cancels with the same observable results as
// with the in-database ledger; a declined authorization fails the order like `card_declined`; one authorize per order.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspacePath } from '../../../src/config/config.js';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { e, eventually, n, publishFlow } from '../orders/orders-support.js';
import { DAY } from './commerce-harness.js';
import { startFakeCommerceServices, type FakeCommerceServices } from './fake-commerce-services.js';

const FLOW = 'tpl-marketplace-order';
const SELLERS = ['seller_acme', 'seller_bolt', 'seller_nimbus'];
/** Kinds only the external-step path writes to the timeline (its calls and their answers). */
const CALL_KINDS = new Set(['node.call', 'node.answer', 'node.retry', 'node.undo_call', 'node.undo_retry', 'node.undo_failed', 'node.late_answer']);

let ledger: TestService;
let remote: TestService;
let fake: FakeCommerceServices;
let wsDir: string;

beforeAll(async () => {
  fake = await startFakeCommerceServices();
  wsDir = mkdtempSync(path.join(os.tmpdir(), 'oo-adapters-ws-'));
  const file = path.join(wsDir, 'workspace.json');
  const adapters = { payments: { url: fake.paymentsUrl, timeout: '5s' }, carrier: { url: `${fake.carrierUrl}/`, timeout: '5s' } };
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(demoWorkspacePath, 'utf8')), adapters }));
  [ledger, remote] = await Promise.all([startTestService(), startTestService({ env: { WORKSPACE_FILE: file, OUTBOUND_ALLOW_LOOPBACK: '1' } })]);
});
afterAll(async () => {
  await Promise.all([ledger?.close(), remote?.close()]);
  await fake?.close();
  if (wsDir) rmSync(wsDir, { recursive: true, force: true });
});

const live = async (t: TestService, id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;
/** Waits until the order's live state satisfies `ready` (the HTTP run answers its calls asynchronously). */
const until = (t: TestService, id: string, what: string, ready: (s: any) => boolean) =>
  eventually(async () => {
    const s = await live(t, id);
    return ready(s) ? s : null;
  }, 10_000, what);
const waitingFor = (nodeId: string) => (s: any) => s.nodes[nodeId]?.status === 'waiting';
const ended = (s: any) => ['completed', 'failed', 'rolled_back', 'cancelled', 'declined'].includes(s.status);

async function start(t: TestService, input: Record<string, unknown>): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', { flowId: FLOW, input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', ...input } });
  expect(res.status, res.text).toBe(201);
  return res.body.orderId;
}
async function sellerAnswers(t: TestService, id: string, sellerId: string, decision: 'accepted' | 'rejected') {
  await until(t, id, 'the sellers wait', waitingFor('wait_sellers'));
  const res = await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId, decision } });
  expect(res.body.delivered, res.text).toBe(true);
}

/** Replaces what differs between two runs of the same input by nature (ids, references, times and durations), keeping the shape. */
function normalize(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalize(v));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]));
  if (typeof value === 'number' && (/At$/.test(key) || ['at', 'since', 'deadline', 'until', 'durationMs'].includes(key))) return '<time>';
  if (typeof value === 'string')
    return value
      .replace(/\b(ord_[0-9a-f]{24}|[a-z]+_[0-9a-f]{20})\b/g, '<id>')
      .replace(/\b(DP[0-9A-F]{12}|FK\d+)\b/g, '<tracking>')
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<time>');
  return value;
}

/** Everything the API shows about the order that must not depend on the adapter. */
async function observe(t: TestService, id: string) {
  const state = await live(t, id);
  const sellerOrders: Record<string, unknown> = {};
  for (const seller of SELLERS) {
    const mine = (await t.call('GET', `/api/v1/sellers/${seller}/orders`)).body.sellerOrders.filter((s: any) => s.orderId === id);
    if (mine.length) sellerOrders[seller] = mine;
  }
  const { timeline, instanceId: _instance, orderId: _id, ...rest } = state;
  return normalize({
    ...rest,
    // The HTTP run adds its calls and answers to the timeline; everything else happens in the same order.
    timeline: timeline.filter((x: any) => !CALL_KINDS.has(x.kind)).map((x: any) => `${x.kind} ${x.nodeId ?? ''}`),
    payouts: (await t.call('GET', `/api/v1/orders/${id}/payouts`)).body.payouts,
    orderSellerOrders: (await t.call('GET', `/api/v1/orders/${id}/seller-orders`)).body.sellerOrders,
    sellerOrders,
  });
}

/** Runs `scenario` against the ledger service and the HTTP service; returns both observations and the HTTP order's id. */
async function bothWays(scenario: (t: TestService) => Promise<string>) {
  const ledgerId = await scenario(ledger);
  const remoteId = await scenario(remote);
  return { ledger: await observe(ledger, ledgerId), remote: await observe(remote, remoteId), remoteId };
}

const ACME = { sku: 'PAN-CAST-10', qty: 2 }; // loc_main
const BOLT = { sku: 'TENT-2P', qty: 1 }; // loc_west
const NIMBUS = { sku: 'PRINT-A3', qty: 1 }; // auto-accepts
const OWN = { sku: 'MUG-1', qty: 1 };

const rows = async (t: TestService, sql: string, params: unknown[]) => (await t.service.ctx.db.query(sql, params)).rows;

describe('marketplace with the HTTP payment gateway and carrier (same results as the ledger)', () => {
  it('completes with a partial acceptance: one authorize, a capture of the re-totalled amount, one booking for two parcels, payouts', async () => {
    const run = await bothWays(async (t) => {
      const id = await start(t, { lines: [ACME, BOLT, NIMBUS, { ...OWN, locationId: 'loc_west' }] });
      await sellerAnswers(t, id, 'seller_bolt', 'rejected');
      await sellerAnswers(t, id, 'seller_acme', 'accepted');
      await until(t, id, 'the return window', waitingFor('wait_returns'));
      await t.advance(14 * DAY);
      await until(t, id, 'completion', ended);
      return id;
    });
    expect(run.remote).toEqual(run.ledger);
    expect(run.remote).toMatchObject({ status: 'completed', nodes: { capture: { status: 'succeeded', output: { released: 199 } } } });
    expect((run.remote as any).payouts.map((p: any) => [p.sellerId, p.status])).toEqual([['seller_acme', 'scheduled'], ['seller_nimbus', 'scheduled']]);
    expect((run.remote as any).nodes.ship.output.shipments).toHaveLength(2);

    const id = run.remoteId;
    const calls = fake.forOrder(id);
    expect(calls.map((r) => r.path.replace(/fa_\d+/, ':id'))).toEqual(['/pay/authorizations', '/ship/shipments', '/pay/authorizations/:id/capture']);
    const [authorize, ship, capture] = calls;
    // Amounts in minor units: 2 pans 90.00 + tent 199.00 + print 28.00 + mug 12.50 authorized; the tent's 199.00 released.
    expect(authorize.body).toEqual({ orderId: id, amount: 32950, currency: 'USD', reference: `${id}:1:authorize` });
    expect(capture.body).toEqual({ amount: 13050, currency: 'USD' });
    expect(ship.body).toMatchObject({ orderId: id, service: 'ground', shipTo: null });
    expect(ship.body.parcels.map((p: any) => [p.locationId, p.lines.map((l: any) => l.sku)])).toEqual([
      ['loc_main', ['PAN-CAST-10', 'PRINT-A3']],
      ['loc_west', ['MUG-1']],
    ]);
    // The local rows are the ledger's, holding the remote ids.
    expect(await rows(remote, 'SELECT status, gateway_ref, captured_minor FROM payment_authorizations WHERE order_id = $1', [id])).toEqual([
      { status: 'captured', gateway_ref: expect.stringMatching(/^fa_\d+$/), captured_minor: '13050' },
    ]);
    expect(await rows(remote, 'SELECT gateway_ref FROM payment_charges WHERE order_id = $1', [id])).toEqual([{ gateway_ref: expect.stringMatching(/^fc_\d+$/) }]);
    expect((await rows(remote, 'SELECT carrier_ref FROM shipments WHERE order_id = $1', [id])).map((r) => r.carrier_ref)).toEqual(
      ship.body.parcels.map(() => expect.stringMatching(/^fs_\d+$/)),
    );
  });

  it('all sellers reject: the run fails and the authorization is voided, locally and at the gateway', async () => {
    const run = await bothWays(async (t) => {
      const id = await start(t, { lines: [ACME, BOLT] });
      await sellerAnswers(t, id, 'seller_acme', 'rejected');
      await sellerAnswers(t, id, 'seller_bolt', 'rejected');
      await until(t, id, 'the end', ended);
      return id;
    });
    expect(run.remote).toEqual(run.ledger);
    expect(run.remote).toMatchObject({ status: 'failed', reason: 'No seller accepted', rollback: { outcome: 'failed', error: null }, nodes: { authorize: { status: 'rolled_back' } } });
    const id = run.remoteId;
    expect(await rows(remote, 'SELECT status FROM payment_authorizations WHERE order_id = $1', [id])).toEqual([{ status: 'voided' }]);
    await until(remote, id, 'the void answered', (s) => s.timeline.some((x: any) => x.kind === 'node.undo_call'));
    const [gatewayAuth] = [...fake.authorizations.values()].filter((a) => a.orderId === id);
    expect(gatewayAuth.status).toBe('voided');
  });

  it('cancel in the return window: shipments cancelled (one carrier call), stock restocked, captured money kept', async () => {
    const stockBefore = async (t: TestService) => (await rows(t, `SELECT on_hand FROM stock_levels WHERE sku = 'PRINT-A3' AND location_id = 'loc_main'`, []))[0].on_hand;
    const before = { ledger: await stockBefore(ledger), remote: await stockBefore(remote) };
    const run = await bothWays(async (t) => {
      const id = await start(t, { lines: [NIMBUS, OWN] });
      await until(t, id, 'the return window', waitingFor('wait_returns'));
      const res = await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'Lost in transit' });
      expect(res.status, res.text).toBe(200);
      return id;
    });
    expect(run.remote).toEqual(run.ledger);
    expect(run.remote).toMatchObject({ status: 'cancelled', reason: 'Lost in transit', nodes: { ship: { status: 'rolled_back' }, capture: { status: 'succeeded' } } });
    expect(await stockBefore(ledger)).toBe(before.ledger);
    expect(await stockBefore(remote)).toBe(before.remote);
    const id = run.remoteId;
    await until(remote, id, 'the carrier cancel answered', (s) => s.timeline.some((x: any) => x.kind === 'node.undo_call'));
    const cancels = fake.received.filter((r) => r.path === '/ship/shipments/cancel' && r.body.orderId === id);
    expect(cancels).toHaveLength(1);
    expect(await rows(remote, 'SELECT status FROM shipments WHERE order_id = $1', [id])).toEqual([{ status: 'cancelled' }]);
    expect(await rows(remote, 'SELECT * FROM refunds WHERE order_id = $1', [id])).toEqual([]);
    expect(fake.forOrder(id).filter((r) => r.path.startsWith('/pay/refunds') || r.path.endsWith('/void'))).toEqual([]);
  });

  it('cancel while sellers answer: the authorization is voided at the gateway; seller orders cancelled', async () => {
    const run = await bothWays(async (t) => {
      const id = await start(t, { lines: [ACME, OWN] });
      await until(t, id, 'the sellers wait', waitingFor('wait_sellers'));
      const res = await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'Buyer cancelled' });
      expect(res.status, res.text).toBe(200);
      return id;
    });
    expect(run.remote).toEqual(run.ledger);
    expect(run.remote).toMatchObject({ status: 'cancelled', nodes: { authorize: { status: 'rolled_back' } } });
    await until(remote, run.remoteId, 'the void answered', (s) => s.timeline.some((x: any) => x.kind === 'node.undo_call'));
    expect([...fake.authorizations.values()].filter((a) => a.orderId === run.remoteId).map((a) => a.status)).toEqual(['voided']);
  });

  it('a capture the gateway keeps failing is retried, then rolls back: shipments cancelled, authorization voided, nothing refunded', async () => {
    // 66.60 USD: the fake gateway answers 503 to its capture; the ledger run fails its capture by `capture_error`.
    const lines = [{ sku: 'MUG-1', qty: 1, unitPrice: 66.6 }];
    fake.failCaptureAmounts.add(6660);
    const run = await bothWays(async (t) => {
      const meta = t === ledger ? { simulate: 'capture_error' } : {};
      const id = await start(t, { lines, meta });
      await until(t, id, 'the first capture failure', (s) => s.nodes.capture.status === 'running' && s.nodes.capture.error !== null);
      await t.advance(1_000);
      await until(t, id, 'the second capture failure', (s) => s.nodes.capture.attempt === 2 && s.nodes.capture.error !== null);
      await t.advance(2_000);
      await until(t, id, 'the rollback', ended);
      return id;
    });
    // Only what the gateway said differs: the error texts, and the ledger order's `meta.simulate` switch.
    const masked = (o: any) => normalize({ ...o, reason: !!o.reason, rollback: o.rollback && { ...o.rollback }, order: { ...o.order, meta: {}, input: { ...o.order.input, meta: {} } }, nodes: { ...o.nodes, capture: { ...o.nodes.capture, error: !!o.nodes.capture.error } } });
    expect(masked(run.remote)).toEqual(masked(run.ledger));
    expect(run.remote).toMatchObject({ status: 'rolled_back', nodes: { capture: { status: 'failed', attempt: 3 }, ship: { status: 'rolled_back' }, authorize: { status: 'rolled_back' } } });
    expect((run.remote as any).nodes.capture.error).toMatch(/The payment gateway failed to capture \(HTTP 503: Processor busy\)/);
    const id = run.remoteId;
    await until(remote, id, 'both undo calls answered', (s) => s.timeline.filter((x: any) => x.kind === 'node.undo_call').length === 2);
    const captures = fake.forOrder(id).filter((r) => r.path.endsWith('/capture'));
    expect(captures).toHaveLength(3);
    expect(new Set(captures.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect([...fake.authorizations.values()].filter((a) => a.orderId === id).map((a) => a.status)).toEqual(['voided']);
    expect([...fake.shipments.values()].filter((s) => s.orderId === id).map((s) => s.status)).toEqual(['cancelled']);
  });
});

describe('charge and refund with the HTTP payment gateway (same results as the ledger)', () => {
  /** start -> price -> charge -> refund (part) -> end with `outcome`: `failed` rolls back and refunds what is left of the charge. */
  const chargeFlow = (outcome: 'completed' | 'failed') => ({
    nodes: [
      n('start', 'trigger.api'), n('price', 'commerce.price'), n('charge', 'commerce.charge', { method: 'stored_card' }),
      n('refund', 'commerce.refund', { amount: 10, reason: 'Goodwill' }), n('done', 'end', { outcome, reason: outcome === 'failed' ? 'Fraud found' : undefined }),
    ],
    edges: [e('start', 'price'), e('price', 'charge'), e('charge', 'refund'), e('refund', 'done')],
  });
  beforeAll(async () => {
    for (const t of [ledger, remote]) {
      await publishFlow(t, 'test-charge-refund', chargeFlow('completed'));
      await publishFlow(t, 'test-charge-rollback', chargeFlow('failed'));
    }
  });
  const startOn = async (t: TestService, flowId: string) => {
    const res = await t.call('POST', '/api/v1/orders', { flowId, input: { model: 'b2c', channel: 'web', customerId: 'cust_1', lines: [{ sku: 'MUG-1', qty: 4 }] } });
    expect(res.status, res.text).toBe(201);
    return res.body.orderId as string;
  };

  it('a charge, then a refund step of part of it: the refund names the gateway charge and is recorded with the gateway id', async () => {
    const run = await bothWays(async (t) => {
      const id = await startOn(t, 'test-charge-refund');
      await until(t, id, 'completion', ended);
      return id;
    });
    expect(run.remote).toEqual(run.ledger);
    expect(run.remote).toMatchObject({ status: 'completed', nodes: { refund: { output: { amount: 10, currency: 'USD' } } } });
    const id = run.remoteId;
    const [charge] = fake.received.filter((r) => r.path === '/pay/charges' && r.body.orderId === id);
    expect(charge.body).toEqual({ orderId: id, amount: 5000, currency: 'USD', method: 'stored_card', reference: `${id}:1:charge` });
    const [refund] = fake.received.filter((r) => r.path === '/pay/refunds' && r.body.orderId === id);
    const [chargeRow] = await rows(remote, 'SELECT gateway_ref FROM payment_charges WHERE order_id = $1', [id]);
    expect(refund.body).toEqual({ orderId: id, currency: 'USD', reason: 'Goodwill', refunds: [{ chargeId: chargeRow.gateway_ref, amount: 1000 }] });
    expect(await rows(remote, 'SELECT amount_minor, status, gateway_ref FROM refunds WHERE order_id = $1', [id])).toEqual([
      { amount_minor: '1000', status: 'succeeded', gateway_ref: expect.stringMatching(/^fr_\d+$/) },
    ]);
  });

  it('a rollback after a charge refunds what is left of it: recorded at once, asked of the gateway after commit', async () => {
    const run = await bothWays(async (t) => {
      const id = await startOn(t, 'test-charge-rollback');
      await until(t, id, 'the rollback', ended);
      return id;
    });
    expect(run.remote).toEqual(run.ledger);
    expect(run.remote).toMatchObject({ status: 'failed', reason: 'Fraud found', nodes: { charge: { status: 'rolled_back' } } });
    const id = run.remoteId;
    await until(remote, id, 'the refund answered', (s) => s.timeline.some((x: any) => x.kind === 'node.undo_call'));
    const refunds = fake.received.filter((r) => r.path === '/pay/refunds' && r.body.orderId === id);
    expect(refunds.map((r) => r.body.refunds)).toEqual([[{ chargeId: expect.any(String), amount: 1000 }], [{ chargeId: expect.any(String), amount: 4000 }]]);
    expect(refunds[1].body.reason).toBe('Order rolled back');
    expect((await rows(remote, 'SELECT amount_minor, gateway_ref FROM refunds WHERE order_id = $1 ORDER BY amount_minor', [id])).map((r) => [r.amount_minor, r.gateway_ref === null])).toEqual([
      ['1000', false],
      ['4000', true],
    ]);
    const [gatewayCharge] = [...fake.charges.values()].filter((c) => c.orderId === id);
    expect(gatewayCharge.refunded).toBe(5000);
  });
});

describe('a declined authorization (HTTP gateway)', () => {
  it('402 fails the order like card_declined: no retry, nothing to undo, the gateway asked once with a stable Idempotency-Key', async () => {
    // 13.37 USD: the fake gateway declines it.
    fake.declineAmounts.add(1337);
    const lines = [{ sku: 'MUG-1', qty: 1, unitPrice: 13.37 }];
    const ledgerId = await start(ledger, { lines, meta: { simulate: 'card_declined' } });
    const remoteId = await start(remote, { lines });
    const [l, r] = [await until(ledger, ledgerId, 'the decline', ended), await until(remote, remoteId, 'the decline', ended)];
    expect(r.status).toBe('failed');
    expect(r.reason).toBe('Card declined by the payment gateway (HTTP 402: Insufficient funds)');
    const shape = (s: any) => normalize({ status: s.status, nodes: Object.fromEntries(Object.entries(s.nodes).map(([k, n]: [string, any]) => [k, [n.status, n.attempt, n.branches]])), rollback: s.rollback ?? null });
    expect(shape(r)).toEqual(shape(l));
    expect(r.nodes.authorize).toMatchObject({ status: 'failed', attempt: 1 });
    expect(await rows(remote, 'SELECT * FROM payment_authorizations WHERE order_id = $1', [remoteId])).toEqual([]);
    const asked = fake.received.filter((x) => x.path === '/pay/authorizations' && x.body.orderId === remoteId);
    expect(asked).toHaveLength(1);
  });

  it('every order gets exactly one authorize request, with its own oo- Idempotency-Key', async () => {
    const ids = [await start(remote, { lines: [OWN] }), await start(remote, { lines: [OWN] })];
    for (const id of ids) await until(remote, id, 'the return window', waitingFor('wait_returns'));
    const keys = ids.map((id) => {
      const asked = fake.received.filter((x) => x.path === '/pay/authorizations' && x.body.orderId === id);
      expect(asked).toHaveLength(1);
      return String(asked[0].headers['idempotency-key']);
    });
    expect(keys[0]).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('with a secret, every request carries the integration signature over its raw body (a settings change reaches the next slice)', async () => {
    const made = await remote.call('POST', '/api/v1/integrations', { name: 'gateway' });
    expect(made.status).toBe(201);
    // An operator's SQL stands in for a restart with the file changed: the reference version moves, the steps read it.
    const db = remote.service.ctx.db;
    await db.query(`UPDATE workspace SET adapters = jsonb_set(adapters, '{payments,secret}', to_jsonb($1::text))`, [made.body.integration.id]);
    try {
      const id = await start(remote, { lines: [OWN] });
      await until(remote, id, 'the return window', waitingFor('wait_returns'));
      const signed = fake.forOrder(id).filter((r) => r.path.startsWith('/pay/'));
      expect(signed.map((r) => r.path.replace(/fa_\d+/, ':id'))).toEqual(['/pay/authorizations', '/pay/authorizations/:id/capture']);
      for (const r of signed) expect(verifySignature(made.body.secret, String(r.headers['x-service-signature']), r.raw, remote.service.ctx.clock.now())).toBe(true);
      expect(fake.forOrder(id).find((r) => r.path === '/ship/shipments')!.headers['x-service-signature']).toBeUndefined();
    } finally {
      await db.query(`UPDATE workspace SET adapters = adapters #- '{payments,secret}'`);
    }
  });
});

describe('a ship step that reserves for itself (HTTP carrier)', () => {
  it('a booking the carrier refuses fails the order and releases the stock the step reserved before its call', async () => {
    await publishFlow(remote, 'test-ship-alone', {
      nodes: [n('start', 'trigger.api'), n('price', 'commerce.price'), n('ship', 'commerce.ship', { service: 'courier' }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'price'), e('price', 'ship'), e('ship', 'done')],
    });
    fake.refuseServices.add('courier');
    try {
      const available = async () => (await remote.service.ctx.db.query(`SELECT sum(on_hand - reserved)::int AS n FROM stock_levels WHERE sku = 'MUG-1'`)).rows[0].n as number;
      const before = await available();
      const res = await remote.call('POST', '/api/v1/orders', { flowId: 'test-ship-alone', input: { model: 'b2c', channel: 'web', customerId: 'cust_1', lines: [{ sku: 'MUG-1', qty: 3 }] } });
      expect(res.status, res.text).toBe(201);
      const state = await until(remote, res.body.orderId, 'the order to end', ended);
      expect(state.status).toBe('failed');
      expect(state.nodes.ship.status).toBe('failed');
      const { rows } = await remote.service.ctx.db.query('SELECT status, count(*)::int AS n FROM stock_reservations WHERE order_id = $1 GROUP BY status', [res.body.orderId]);
      expect(rows).toEqual([{ status: 'released', n: 1 }]);
      expect(await available()).toBe(before);
    } finally {
      fake.refuseServices.delete('courier');
    }
  });
});

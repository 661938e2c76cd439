// Held orders over real HTTP (issue 33, runtime contract section 16): an http.call with `onFailure: "hold"` against a
// receiver answering 503 until it recovers parks its order with nothing undone; retry completes it with one Idempotency-Key,
// rollback undoes the completed steps in reverse, cancel works as usual; the hold is in the live state, the list row,
// needs_attention, /metrics and a webhook (order.held, a new delivery per hold); a batch retries each held order once;
// the hold survives a restart of the service.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { createTestDatabase } from '../../support/test-db.js';
import { e, eventually, n, publishFlow, startBody, startOrdersService, tokenFor } from '../orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';
import { testEffect, testEffectPorts, TEST_EFFECTS_DDL } from '../../support/test-node-types.js';

let t: TestService;
let rx: ScriptedReceiver;
let gateways = 0;
const ENV = { OUTBOUND_ALLOW_LOOPBACK: '1' };
/** Short lease and polls, so a batch's orders run at once. */
const FAST_BATCHES = { batches: { leaseMs: 1_500, pollMs: 100, recoverMs: 200, creatorTtlMs: 200 } };

beforeAll(async () => {
  t = await startOrdersService({ env: ENV, start: FAST_BATCHES });
  rx = await startScriptedReceiver();
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});
beforeEach(async () => {
  // Each test subscribes what it needs.
  const { subscriptions } = (await t.call('GET', '/api/v1/webhook-subscriptions')).body;
  for (const s of subscriptions) await t.call('DELETE', `/api/v1/webhook-subscriptions/${s.id}`);
});

/** A payment gateway on its own path: 503 while `down`, then 201 with a charge id. */
function gateway() {
  const path = `/gw-${++gateways}`;
  const state = { path, down: true, url: '' };
  state.url = `${rx.url}${path}`;
  rx.script(path, () => (state.down ? { status: 503, body: { error: 'maintenance' } } : { status: 201, body: { chargeId: 'ch_1' } }));
  return state;
}

/**
 * Publishes start -> reserve -> pay (test.effect: undoable, recorded in test_effects) -> charge (http.call to `url`, held
 * on failure, one retry after 5 s) -> done; answers the flow id.
 */
async function heldFlow(url: string, retries = 1, on = t): Promise<string> {
  const id = `held-${++gateways}`;
  await publishFlow(on, id, {
    nodes: [
      n('start', 'trigger.api'),
      n('reserve', 'test.effect', {}, 'Reserve stock'),
      n('pay', 'test.effect', {}, 'Authorize payment'),
      n('charge', 'http.call', { url, retry: { attempts: retries, backoff: '5s' }, onFailure: 'hold' }, 'Charge gateway'),
      n('done', 'end', { outcome: 'completed' }),
    ],
    edges: [e('start', 'reserve'), e('reserve', 'pay'), e('pay', 'charge'), e('charge', 'done')],
  });
  return id;
}

const live = async (id: string, on = t) => (await on.call('GET', `/api/v1/orders/${id}`)).body;
const settled = (id: string, status: string, on = t) => eventually(async () => ((await live(id, on)).status === status ? live(id, on) : null), 10_000, `order ${status}`);
const kinds = (state: any) => state.timeline.map((x: any) => x.kind);
const effects = async (id: string, on = t) =>
  (await on.service.ctx.db.query<{ node_id: string; kind: string }>('SELECT node_id, kind FROM test_effects WHERE order_id = $1 ORDER BY id', [id])).rows.map((r) => `${r.kind} ${r.node_id}`);
const resolve = (id: string, nodeId: string, body: unknown, options?: { token?: string }, on = t) => on.call('POST', `/api/v1/orders/${id}/holds/${nodeId}`, body, options);

/** Starts an order on `flow` and waits until its step is held: the first attempt at once, each retry after its backoff (5 s doubling). */
async function heldOrder(flow: string, on = t, retries = 1): Promise<{ id: string; state: any }> {
  const res = await on.call('POST', '/api/v1/orders', startBody(flow, { title: `held ${flow}` }));
  expect(res.status, res.text).toBe(201);
  const id: string = res.body.orderId;
  for (let k = 1; k <= retries; k++) {
    await eventually(async () => kinds(await live(id, on)).filter((x: string) => x === 'node.retry').length === k, 10_000, `failed attempt ${k}`);
    await on.advance(5_000 * 2 ** (k - 1));
  }
  const state = await eventually(async () => {
    const s = await live(id, on);
    return s.holds.length ? s : null;
  }, 10_000, 'the hold');
  return { id, state };
}

describe('a held http.call (contract 16)', () => {
  it('fails with nothing undone: node failed, order waiting, the hold in the live state, the list row, needs_attention and /metrics', async () => {
    const gw = gateway();
    const flow = await heldFlow(gw.url);
    const { id, state } = await heldOrder(flow);
    expect(state.status).toBe('waiting');
    expect(state.reason).toBeNull();
    expect(state.holds).toEqual([{ nodeId: 'charge', title: 'Charge gateway failed: The call failed: HTTP 503', error: 'The call failed: HTTP 503', since: expect.any(Number) }]);
    expect(state.waits).toEqual([]);
    expect(state.nodes.charge).toMatchObject({ status: 'failed', attempt: 2, runs: 1, error: 'The call failed: HTTP 503', output: { status: 503, attempts: 2 } });
    expect(state.nodes.reserve.status).toBe('succeeded');
    expect(state.nodes.pay.status).toBe('succeeded');
    expect(state.rollback).toBeUndefined();
    expect(kinds(state)).toEqual(expect.arrayContaining(['node.failed', 'node.held']));
    expect(await effects(id)).toEqual(['do reserve', 'do pay']);

    // The list row: waiting on the hold's title, at the step's label, since the hold; the parked-node filter finds it.
    const list = await t.call('GET', `/api/v1/orders?flowId=${flow}&waitingAtNode=charge`);
    expect(list.body.orders.map((o: any) => o.id)).toEqual([id]);
    expect(list.body.orders[0]).toMatchObject({ status: 'waiting', waitingOn: [state.holds[0].title], waitingAt: ['Charge gateway'], waitingSince: state.holds[0].since });

    const attention = (await t.call('GET', '/api/v1/attention')).body;
    expect(attention.held).toContainEqual(expect.objectContaining({ id, nodeId: 'charge', title: state.holds[0].title, error: 'The call failed: HTTP 503', since: state.holds[0].since }));
    expect(attention.counts.held).toBeGreaterThanOrEqual(1);

    const metrics = (await t.call('GET', '/metrics')).text;
    const held = Number(/^orders_service_orders_held (\d+)/m.exec(metrics)?.[1]);
    expect(held).toBeGreaterThanOrEqual(1);
    // Resolving it takes it off the gauge.
    gw.down = false;
    expect((await resolve(id, 'charge', { action: 'retry' })).status).toBe(200);
    await settled(id, 'completed');
    expect(Number(/^orders_service_orders_held (\d+)/m.exec((await t.call('GET', '/metrics')).text)?.[1])).toBe(held - 1);
  });

  it('retry continues the same run: attempts keep counting, every attempt carries one Idempotency-Key, and the order completes', async () => {
    const gw = gateway();
    const { id } = await heldOrder(await heldFlow(gw.url));
    gw.down = false;
    const res = await resolve(id, 'charge', { action: 'retry', note: 'The gateway is back' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const done = await settled(id, 'completed');
    const tries = rx.on(gw.path);
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(tries[0].headers['idempotency-key']).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(done.nodes.charge).toMatchObject({ status: 'succeeded', runs: 1, attempt: 3, error: null, output: { status: 201, body: { chargeId: 'ch_1' }, attempts: 3 } });
    expect(done.holds).toEqual([]);
    const retried = done.timeline.find((x: any) => x.kind === 'node.hold_retried');
    expect(retried).toMatchObject({ nodeId: 'charge', message: 'Charge gateway: retry by api: The gateway is back' });
    expect(await effects(id)).toEqual(['do reserve', 'do pay']);
    const { rows } = await t.service.ctx.db.query('SELECT number, status, resolved_by, note FROM order_holds WHERE order_id = $1', [id]);
    expect(rows).toEqual([{ number: 1, status: 'retried', resolved_by: 'api', note: 'The gateway is back' }]);
    const calls = await t.service.ctx.db.query('SELECT attempt, status FROM order_calls WHERE order_id = $1 ORDER BY attempt', [id]);
    expect(calls.rows).toEqual([{ attempt: 1, status: 'answered' }, { attempt: 2, status: 'answered' }, { attempt: 3, status: 'answered' }]);
  });

  it('a second failure after a retry holds again, and a webhook subscriber gets a second order.held (a new delivery)', async () => {
    rx.script('/hooks', () => ({ status: 200 }));
    const sub = await t.call('POST', '/api/v1/webhook-subscriptions', { url: `${rx.url}/hooks`, events: ['order.held'] });
    expect(sub.status, sub.text).toBe(201);
    const before = rx.on('/hooks').length;
    const gw = gateway();
    const { id } = await heldOrder(await heldFlow(gw.url));
    const first = await eventually(async () => (rx.on('/hooks').length === before + 1 ? rx.on('/hooks').at(-1)! : null), 10_000, 'the first order.held');
    expect(first.headers['x-service-event']).toBe('order.held');
    expect(first.body).toMatchObject({ event: 'order.held', orderId: id, data: { order: { id }, node: { id: 'charge', type: 'http.call', error: 'The call failed: HTTP 503' } } });

    // Still down: the retry's one attempt fails and the step holds again at once.
    expect((await resolve(id, 'charge', { action: 'retry' })).status).toBe(200);
    const again = await eventually(async () => {
      const s = await live(id);
      return s.nodes.charge.attempt === 3 && s.holds.length ? s : null;
    }, 10_000, 'the second hold');
    expect(again.status).toBe('waiting');
    expect(kinds(again).filter((k: string) => k === 'node.held')).toHaveLength(2);
    const second = await eventually(async () => (rx.on('/hooks').length === before + 2 ? rx.on('/hooks').at(-1)! : null), 10_000, 'the second order.held');
    expect(second.body.event).toBe('order.held');
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.headers['x-service-delivery']).not.toBe(first.headers['x-service-delivery']);
    const { rows } = await t.service.ctx.db.query('SELECT number, status FROM order_holds WHERE order_id = $1 ORDER BY number', [id]);
    expect(rows).toEqual([{ number: 1, status: 'retried' }, { number: 2, status: 'open' }]);
    // Every attempt of the run, across both holds, carried one key.
    expect(new Set(rx.on(gw.path).map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('rollback applies the rules the step would have had: the completed steps undone in reverse, the order rolled back, order.failed', async () => {
    const gw = gateway();
    const { id } = await heldOrder(await heldFlow(gw.url));
    const res = await resolve(id, 'charge', { action: 'rollback', note: 'Outage lasts all day' });
    expect(res.status, res.text).toBe(200);
    const rolled = await settled(id, 'rolled_back');
    expect(rolled.reason).toBe('The call failed: HTTP 503');
    expect(rolled.rollback).toEqual({ outcome: 'rolled_back', error: null });
    expect(rolled.nodes).toMatchObject({ reserve: { status: 'rolled_back' }, pay: { status: 'rolled_back' }, charge: { status: 'failed' }, done: { status: 'skipped' } });
    expect(rolled.holds).toEqual([]);
    expect(await effects(id)).toEqual(['do reserve', 'do pay', 'undo pay', 'undo reserve']);
    expect(rx.on(gw.path)).toHaveLength(2);
    const { rows } = await t.service.ctx.db.query("SELECT event, data FROM outbox WHERE order_id = $1 AND event IN ('order.held', 'order.failed') ORDER BY created_at, event DESC", [id]);
    expect(rows.map((r) => r.event)).toEqual(['order.held', 'order.failed']);
    expect(rows[1].data).toMatchObject({ outcome: 'failed', reason: 'The call failed: HTTP 503', node: { id: 'charge', type: 'http.call', error: 'The call failed: HTTP 503' } });
  });

  it('cancel of a held order works as usual (undone by cancel, the hold closed); afterwards the node is not held', async () => {
    const gw = gateway();
    const { id } = await heldOrder(await heldFlow(gw.url));
    const res = await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'Customer gave up waiting' });
    expect(res.status, res.text).toBe(200);
    const cancelled = await live(id);
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'Customer gave up waiting', holds: [] });
    expect(cancelled.nodes.charge.status).toBe('failed');
    expect(await effects(id)).toEqual(['do reserve', 'do pay', 'cancel pay', 'cancel reserve']);
    const { rows } = await t.service.ctx.db.query('SELECT status FROM order_holds WHERE order_id = $1', [id]);
    expect(rows).toEqual([{ status: 'cancelled' }]);
    const late = await resolve(id, 'charge', { action: 'retry' });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: 'That node is not held' });
  });

  it('refusals change nothing: 409 for a node that is not held, 404 for an unknown order, 400 for a bad body, 403 below operator', async () => {
    const gw = gateway();
    const { id, state } = await heldOrder(await heldFlow(gw.url));
    expect(await resolve(id, 'pay', { action: 'retry' })).toMatchObject({ status: 409, body: { error: 'That node is not held' } });
    expect(await resolve(id, 'nowhere', { action: 'rollback' })).toMatchObject({ status: 409, body: { error: 'That node is not held' } });
    expect((await resolve('ord_missing', 'charge', { action: 'retry' })).status).toBe(404);
    const bad = await resolve(id, 'charge', { action: 'skip' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: any) => i.path)).toEqual(['action']);
    expect((await resolve(id, 'charge', { action: 'retry', extra: 1 })).status).toBe(400);
    expect((await resolve(id, 'charge', { action: 'retry', note: 'x'.repeat(2001) })).status).toBe(400);
    for (const role of ['viewer', 'approver'] as const) expect((await resolve(id, 'charge', { action: 'retry' }, { token: await tokenFor(t, role) })).status).toBe(403);
    const after = await live(id);
    expect(after.holds).toEqual(state.holds);
    expect(after.updatedAt).toBe(state.updatedAt);
    expect(rx.on(gw.path)).toHaveLength(2);
    // An operator token may.
    gw.down = false;
    expect((await resolve(id, 'charge', { action: 'retry' }, { token: await tokenFor(t, 'operator') })).status).toBe(200);
    await settled(id, 'completed');
  });

  it('a local step that fails terminally holds in the order\'s first slice; a retry that fails again closes hold 1 and opens hold 2 in one slice', async () => {
    const flow = `local-held-${++gateways}`;
    await publishFlow(t, flow, {
      nodes: [n('start', 'trigger.api'), n('reserve', 'test.effect'), n('check', 'test.effect', { fail: 'terminal', onFailure: 'hold' }, 'Credit check'), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'reserve'), e('reserve', 'check'), e('check', 'done')],
    });
    const res = await t.call('POST', '/api/v1/orders', startBody(flow));
    expect(res.status, res.text).toBe(201);
    const id = res.body.orderId;
    const held = await live(id);
    expect(held).toMatchObject({ status: 'waiting', holds: [{ nodeId: 'check', title: 'Credit check failed: check refused', error: 'check refused' }] });
    expect(held.nodes.check).toMatchObject({ status: 'failed', attempt: 1 });
    expect((await resolve(id, 'check', { action: 'retry' })).status).toBe(200);
    const again = await live(id);
    expect(again).toMatchObject({ status: 'waiting', holds: [{ nodeId: 'check' }] });
    expect(again.nodes.check).toMatchObject({ status: 'failed', attempt: 2, runs: 1 });
    const { rows } = await t.service.ctx.db.query('SELECT number, status FROM order_holds WHERE order_id = $1 ORDER BY number', [id]);
    expect(rows).toEqual([{ number: 1, status: 'retried' }, { number: 2, status: 'open' }]);
    const events = await t.service.ctx.db.query("SELECT id FROM outbox WHERE order_id = $1 AND event = 'order.held'", [id]);
    expect(events.rows).toHaveLength(2);
    // Each attempt's effect was written once (the failing attempts' writes rolled back to their savepoints).
    expect(await effects(id)).toEqual(['do reserve']);
    expect((await resolve(id, 'check', { action: 'rollback' })).status).toBe(200);
    expect(await live(id)).toMatchObject({ status: 'failed', reason: 'check refused', holds: [] });
    expect(await effects(id)).toEqual(['do reserve', 'undo reserve']);
  });

  it('without onFailure the rules of section 5 hold as before: the same outage rolls the order back at once', async () => {
    const gw = gateway();
    const flow = `unheld-${gateways}`;
    await publishFlow(t, flow, {
      nodes: [n('start', 'trigger.api'), n('reserve', 'test.effect'), n('charge', 'http.call', { url: gw.url, retry: { attempts: 0, backoff: '5s' } }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'reserve'), e('reserve', 'charge'), e('charge', 'done')],
    });
    const res = await t.call('POST', '/api/v1/orders', startBody(flow));
    const rolled = await settled(res.body.orderId, 'rolled_back');
    expect(rolled.holds).toEqual([]);
    expect(await effects(res.body.orderId)).toEqual(['do reserve', 'undo reserve']);
  });

  it('a resolve_hold batch over held orders retries each exactly once; an order with no held step is skipped with the refusal', async () => {
    const gw = gateway();
    const flow = await heldFlow(gw.url, 0);
    const held: string[] = [];
    for (let i = 0; i < 3; i++) held.push((await heldOrder(flow, t, 0)).id);
    const other = gateway();
    other.down = false;
    const fine = (await t.call('POST', '/api/v1/orders', startBody(await heldFlow(other.url, 0)))).body.orderId as string;
    await settled(fine, 'completed');
    const dry = await t.call('POST', '/api/v1/batches', { operation: 'resolve_hold', filter: { flowId: flow, waitingAtNode: 'charge' }, input: { action: 'retry' }, dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.count).toBe(3);
    gw.down = false;
    const res = await t.call('POST', '/api/v1/batches', { operation: 'resolve_hold', orderIds: [...held, fine], input: { action: 'retry', note: 'Gateway recovered' }, ratePerSecond: 1000 });
    expect(res.status, res.text).toBe(202);
    const ended = await eventually(async () => {
      const got = await t.call('GET', `/api/v1/batches/${res.body.batch.id}`);
      return got.body.batch.state === 'completed' ? got.body : null;
    }, 20_000, 'the batch');
    expect(ended.batch).toMatchObject({ operation: 'resolve_hold', total: 4, done: 3, skipped: 1, failed: 0 });
    expect(ended.results.find((r: any) => r.orderId === fine)).toEqual({ orderId: fine, outcome: 'skipped', error: 'The order has no held step' });
    for (const id of held) {
      const done = await settled(id, 'completed');
      expect(done.nodes.charge).toMatchObject({ attempt: 2, output: { attempts: 2 } });
      expect(done.timeline.filter((x: any) => x.kind === 'node.hold_retried')).toHaveLength(1);
    }
    // Two requests per order (the failed one and the retry), each order's with its own key.
    expect(rx.on(gw.path)).toHaveLength(6);
    expect(new Set(rx.on(gw.path).map((r) => r.headers['idempotency-key'])).size).toBe(3);
  });
});

describe('a hold survives a restart of the service', () => {
  it('held before the restart, retried after it: the same run goes on with the same Idempotency-Key', async () => {
    const database = await createTestDatabase();
    const start = () => startTestService({ database, env: ENV, start: { engine: { nodeTypes: [testEffect], ports: testEffectPorts, builtinFlows: false } } });
    let first: TestService | null = await start();
    try {
      await first.service.ctx.db.query(TEST_EFFECTS_DDL);
      const gw = gateway();
      const flow = await heldFlow(gw.url, 1, first);
      const { id, state } = await heldOrder(flow, first);
      await first.close();
      first = null;
      const second = await start();
      try {
        const after = await live(id, second);
        expect(after.status).toBe('waiting');
        expect(after.holds).toEqual(state.holds);
        // Nothing fires for it meanwhile: no timer stands for a held step.
        await second.advance(3_600_000);
        expect(rx.on(gw.path)).toHaveLength(2);
        gw.down = false;
        expect((await resolve(id, 'charge', { action: 'retry' }, undefined, second)).status).toBe(200);
        const done = await settled(id, 'completed', second);
        expect(done.nodes.charge).toMatchObject({ attempt: 3, output: { attempts: 3 } });
        expect(new Set(rx.on(gw.path).map((r) => r.headers['idempotency-key'])).size).toBe(1);
      } finally {
        await second.close();
      }
    } finally {
      await first?.close();
      await database.drop();
    }
  });
});

// Batches over real HTTP (contract 16, issue 32): dry run, refusals skipped with the single call's message, states and
// their 409s, audit and metrics, what an expired lease means, two services on one database (exactly once, the rate cap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { startTestService, WORKSPACE_PASSWORD } from '../../support/test-service.js';
import { e, eventually, graphs, n, publishFlow, startBody, startOrdersService, tokenFor } from '../orders/orders-support.js';
import { UNCERTAIN_OUTCOME } from '../../../src/application/batches/batch-worker.js';

let t: TestService;
const FAST = { batches: { leaseMs: 1_500, pollMs: 100, recoverMs: 200 } };

beforeAll(async () => {
  t = await startOrdersService({ start: FAST });
  await publishFlow(t, 'pay-wait', graphs.eventWait);
  await publishFlow(t, 'approve', graphs.approval);
});
afterAll(async () => {
  await t?.close();
});

/** Starts `count` orders on `flow`, titled `<tag> <i>`; answers their ids, oldest first. */
async function orders(flow: string, count: number, tag: string, input: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.call('POST', '/api/v1/orders', startBody(flow, { title: `${tag} ${i}`, ...input }));
    if (res.status !== 201) throw new Error(res.text);
    ids.push(res.body.orderId);
  }
  return ids;
}

const start = (body: Record<string, unknown>, token?: string) => t.call('POST', '/api/v1/batches', body, token ? { token } : {});

/** Starts a batch (202) and waits until it has no order left to process. */
async function runBatch(body: Record<string, unknown>): Promise<{ batch: any; results: any[] }> {
  const res = await start({ ratePerSecond: 1000, ...body });
  expect(res.status, res.text).toBe(202);
  return eventually(async () => {
    const got = await t.call('GET', `/api/v1/batches/${res.body.batch.id}`);
    return got.body.batch.state === 'completed' ? got.body : null;
  }, 20_000, 'the batch to complete');
}

const statusOf = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body.status as string;

describe('POST /api/v1/batches validates its body (contract 16; spec "Errors": 400 with issues, nothing changes)', () => {
  it('an operation not built yet (resolve_hold, migrate) or unknown is a 400 naming it', async () => {
    for (const operation of ['resolve_hold', 'migrate', 'archive']) {
      const res = await start({ operation, orderIds: ['ord_x'] });
      expect(res.status).toBe(400);
      expect(res.body.issues).toContainEqual({ path: 'operation', message: `Unknown operation: ${operation}` });
    }
    expect((await t.call('GET', '/api/v1/batches')).body.batches).toEqual([]);
  });

  it('exactly one of orderIds and filter; orderIds at most 10,000; ratePerSecond 1 to 1000; the input the operation takes', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ operation: 'cancel' }, 'filter'],
      [{ operation: 'cancel', orderIds: ['a'], filter: {} }, 'orderIds'],
      [{ operation: 'cancel', orderIds: Array.from({ length: 10_001 }, (_, i) => `ord_${i}`) }, 'orderIds'],
      [{ operation: 'cancel', orderIds: [] }, 'orderIds'],
      [{ operation: 'cancel', orderIds: ['a'], ratePerSecond: 0 }, 'ratePerSecond'],
      [{ operation: 'cancel', orderIds: ['a'], ratePerSecond: 1001 }, 'ratePerSecond'],
      [{ operation: 'cancel', orderIds: ['a'], input: { reason: '' } }, 'input.reason'],
      [{ operation: 'deliver_event', orderIds: ['a'], input: {} }, 'input.event'],
      [{ operation: 'decide_approval', orderIds: ['a'], input: { decision: 'maybe' } }, 'input.decision'],
      [{ operation: 'decide_approval', orderIds: ['a'], input: { decision: 'approved', by: 'someone' } }, 'input'],
      [{ operation: 'restart', orderIds: ['a'], input: { reason: 'x' } }, 'input'],
      [{ operation: 'cancel', filter: { flowVersion: 1 } }, 'filter.flowVersion'],
      [{ operation: 'cancel', filter: { colour: 'red' } }, 'filter'],
    ];
    for (const [body, path] of cases) {
      const res = await start(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.issues.map((i: { path: string }) => i.path), JSON.stringify(body).slice(0, 80)).toContain(path);
    }
    expect((await t.call('GET', '/api/v1/batches')).body.batches).toEqual([]);
  });

  it("role: the operation's own (approver for decide_approval, operator otherwise); a viewer starts none", async () => {
    const approver = await tokenFor(t, 'approver');
    const viewer = await tokenFor(t, 'viewer');
    const refused = await start({ operation: 'cancel', orderIds: ['ord_x'], dryRun: true }, approver);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('This needs the operator role');
    expect((await start({ operation: 'decide_approval', orderIds: ['ord_x'], input: { decision: 'approved' }, dryRun: true }, approver)).status).toBe(200);
    expect((await start({ operation: 'decide_approval', orderIds: ['ord_x'], input: { decision: 'approved' }, dryRun: true }, viewer)).status).toBe(403);
    expect((await t.call('GET', '/api/v1/batches', undefined, { token: viewer })).status).toBe(200);
  });
});

describe('dry run (contract 16: 200 { count, sample }, starts nothing)', () => {
  it('counts the matches of a filter and samples the first 20 ids in the order list order; a list counts each id once', async () => {
    const ids = await orders('pay-wait', 23, 'dry');
    const res = await start({ operation: 'cancel', filter: { flowId: 'pay-wait', q: 'dry' }, dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(23);
    const listed = (await t.call('GET', '/api/v1/orders?flowId=pay-wait&q=dry&limit=20')).body.orders.map((o: { id: string }) => o.id);
    expect(res.body.sample).toEqual(listed);
    const byIds = await start({ operation: 'cancel', orderIds: [ids[0], ids[1], ids[0], 'ord_unknown'], dryRun: true });
    expect(byIds.body).toEqual({ count: 3, sample: [ids[0], ids[1], 'ord_unknown'] });
    expect((await t.call('GET', '/api/v1/batches')).body.batches).toEqual([]);
    for (const id of ids) expect(await statusOf(id)).toBe('waiting');
  });
});

describe("each operation runs per order as one call would; a refusal is skipped with that call's message (contract 16)", () => {
  it('cancel: waiting orders are cancelled with the given reason (done); a finished one and an unknown id are skipped with the 409 and 404 messages', async () => {
    const [a, b, finished] = await orders('pay-wait', 3, 'cancel-op');
    expect((await t.call('POST', `/api/v1/orders/${finished}/cancel`, {})).status).toBe(200);
    const single = await t.call('POST', `/api/v1/orders/${finished}/cancel`, {});
    const unknown = await t.call('POST', '/api/v1/orders/ord_nothing_here/cancel', {});
    const { batch, results } = await runBatch({ operation: 'cancel', orderIds: [a, finished, b, 'ord_nothing_here'], input: { reason: 'Stock recalled' } });
    expect(batch).toMatchObject({ operation: 'cancel', state: 'completed', total: 4, done: 2, skipped: 2, failed: 0, ratePerSecond: 1000, createdBy: 'api' });
    expect(batch.finishedAt).toBeGreaterThanOrEqual(batch.createdAt);
    const byOrder = new Map(results.map((r: any) => [r.orderId, r]));
    expect(byOrder.get(a)).toEqual({ orderId: a, outcome: 'done' });
    expect(byOrder.get(finished)).toEqual({ orderId: finished, outcome: 'skipped', error: single.body.error });
    expect(byOrder.get('ord_nothing_here')).toEqual({ orderId: 'ord_nothing_here', outcome: 'skipped', error: unknown.body.error });
    expect((await t.call('GET', `/api/v1/orders/${b}`)).body).toMatchObject({ status: 'cancelled', reason: 'Stock recalled' });
  });

  it('cancel without a reason records the batch as the reason', async () => {
    const [a] = await orders('pay-wait', 1, 'cancel-default');
    const { batch } = await runBatch({ operation: 'cancel', orderIds: [a] });
    expect((await t.call('GET', `/api/v1/orders/${a}`)).body.reason).toBe(`Cancelled by batch ${batch.id}`);
  });

  it('deliver_event: the waiting orders resume (done); an order that waits for another event, or for none, is skipped saying what it waits for', async () => {
    const [a, b] = await orders('pay-wait', 2, 'deliver-op');
    const [approval] = await orders('approve', 1, 'deliver-op-approval');
    const single = await t.call('POST', `/api/v1/orders/${approval}/events`, { event: 'payment.received' });
    expect(single.body).toEqual({ delivered: false, waitingFor: [] });
    const { batch, results } = await runBatch({ operation: 'deliver_event', orderIds: [a, approval, b], input: { event: 'payment.received', payload: { amount: 25 } } });
    expect(batch).toMatchObject({ done: 2, skipped: 1, failed: 0 });
    expect(results.find((r: any) => r.orderId === approval)).toEqual({ orderId: approval, outcome: 'skipped', error: 'Nothing waits for payment.received' });
    expect(await statusOf(a)).toBe('completed');
    expect((await t.call('GET', `/api/v1/orders/${b}`)).body.vars.payment_received).toMatchObject({ amount: 25, event: 'payment.received' });
  });

  it('decide_approval: with nodeId, or the sole open approval without it; a node not waiting is skipped with the single call\'s 409 message', async () => {
    const [a, b, c] = await orders('approve', 3, 'decide-op');
    const [wait] = await orders('pay-wait', 1, 'decide-op-wait');
    const single = await t.call('POST', `/api/v1/orders/${wait}/approvals/review`, { decision: 'approved' });
    expect(single.status).toBe(409);
    const named = await runBatch({ operation: 'decide_approval', orderIds: [a, wait], input: { decision: 'approved', nodeId: 'review', note: 'Bulk approval' } });
    expect(named.batch).toMatchObject({ done: 1, skipped: 1 });
    expect(named.results.find((r: any) => r.orderId === wait).error).toBe(single.body.error);
    expect(await statusOf(a)).toBe('completed');
    const sole = await runBatch({ operation: 'decide_approval', orderIds: [b, c, wait], input: { decision: 'rejected' } });
    expect(sole.batch).toMatchObject({ done: 2, skipped: 1 });
    expect(sole.results.find((r: any) => r.orderId === wait).error).toBe('The order is not waiting for an approval');
    expect(await statusOf(b)).toBe('declined');
    // Recorded as the creator, as a single decision is (spec "Approval": `api` for the workspace password on the API).
    const inbox = (await t.call('GET', '/api/v1/approvals?status=rejected')).body.approvals;
    expect(inbox.find((r: any) => r.orderId === c)).toMatchObject({ decidedBy: 'api' });
  });

  it('decide_approval by an approver token runs as that token; an order is decided once per batch even when listed twice', async () => {
    const approver = await tokenFor(t, 'approver', 'bulk-approver');
    const [a] = await orders('approve', 1, 'decide-token');
    const res = await start({ operation: 'decide_approval', orderIds: [a, a], input: { decision: 'approved' }, ratePerSecond: 1000 }, approver);
    expect(res.status).toBe(202);
    expect(res.body.batch).toMatchObject({ total: 1, createdBy: 'token:bulk-approver' });
    await eventually(async () => (await statusOf(a)) === 'completed', 10_000, 'the approval');
    const inbox = (await t.call('GET', '/api/v1/approvals?status=approved')).body.approvals;
    expect(inbox.find((r: any) => r.orderId === a)).toMatchObject({ decidedBy: 'token:bulk-approver' });
  });

  it('restart: an ended order gets one new order linked by restartedFrom (done); an unfinished one is skipped with the 409 message', async () => {
    const [ended, open] = await orders('pay-wait', 2, 'restart-op');
    await t.call('POST', `/api/v1/orders/${ended}/cancel`, {});
    const single = await t.call('POST', `/api/v1/orders/${open}/restart`);
    expect(single.status).toBe(409);
    const { batch, results } = await runBatch({ operation: 'restart', orderIds: [ended, open] });
    expect(batch).toMatchObject({ done: 1, skipped: 1 });
    expect(results.find((r: any) => r.orderId === open).error).toBe(single.body.error);
    const { rows } = await t.service.ctx.db.query('SELECT id FROM orders WHERE restarted_from = $1', [ended]);
    expect(rows).toHaveLength(1);
  });
});

describe('pause, resume and cancel (contract 16: the states move as said; 409 from a state that cannot change so)', () => {
  it('pause stops new orders, resume goes on, cancel ends it; each refused from the wrong state with the state named', async () => {
    const ids = await orders('pay-wait', 6, 'states');
    const started = await start({ operation: 'deliver_event', orderIds: ids, input: { event: 'payment.received' }, ratePerSecond: 2 });
    expect(started.status).toBe(202);
    const id = started.body.batch.id;
    expect(started.body.batch).toMatchObject({ state: 'running', total: 6, done: 0, ratePerSecond: 2, finishedAt: null });
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${id}`)).body.batch.done >= 1, 10_000, 'a first order');
    const paused = await t.call('POST', `/api/v1/batches/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.batch.state).toBe('paused');
    const again = await t.call('POST', `/api/v1/batches/${id}/pause`);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Only a running batch can be paused (this one is paused)');
    // Paused: an order being processed may finish, none starts (2 per second would have moved it on).
    await new Promise((r) => setTimeout(r, 300));
    const settled = (await t.call('GET', `/api/v1/batches/${id}`)).body.batch.done;
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await t.call('GET', `/api/v1/batches/${id}`)).body.batch).toMatchObject({ state: 'paused', done: settled });
    const resumed = await t.call('POST', `/api/v1/batches/${id}/resume`);
    expect(resumed.body.batch.state).toBe('running');
    expect((await t.call('POST', `/api/v1/batches/${id}/resume`)).body.error).toBe('Only a paused batch can be resumed (this one is running)');
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${id}`)).body.batch.done > settled, 10_000, 'progress after resume');
    const cancelled = await t.call('POST', `/api/v1/batches/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.batch.state).toBe('cancelled');
    expect(cancelled.body.batch.finishedAt).not.toBeNull();
    for (const action of ['pause', 'resume', 'cancel']) {
      const res = await t.call('POST', `/api/v1/batches/${id}/${action}`);
      expect(res.status, action).toBe(409);
      expect(res.body.error).toMatch(/\(this one is cancelled\)$/);
    }
    await new Promise((r) => setTimeout(r, 1_200));
    const final = (await t.call('GET', `/api/v1/batches/${id}`)).body;
    expect(final.batch.state).toBe('cancelled');
    expect(final.batch.done).toBeLessThan(6);
    expect(final.results).toHaveLength(final.batch.done);
    // A completed batch cannot be paused or cancelled either.
    const done = await runBatch({ operation: 'cancel', orderIds: [ids[5]] });
    expect((await t.call('POST', `/api/v1/batches/${done.batch.id}/pause`)).body.error).toBe('Only a running batch can be paused (this one is completed)');
    expect((await t.call('POST', `/api/v1/batches/${done.batch.id}/cancel`)).body.error).toBe('Only a running or paused batch can be cancelled (this one is completed)');
    expect((await t.call('POST', '/api/v1/batches/bat_unknown/pause')).status).toBe(404);
  });

  it('an approver may pause a decide_approval batch but not a cancel batch (the operation\'s role)', async () => {
    const approver = await tokenFor(t, 'approver');
    const ids = await orders('approve', 2, 'states-role');
    const decide = await start({ operation: 'decide_approval', orderIds: ids, input: { decision: 'approved' }, ratePerSecond: 1 });
    const cancel = await start({ operation: 'cancel', orderIds: ids, ratePerSecond: 1 });
    expect((await t.call('POST', `/api/v1/batches/${decide.body.batch.id}/pause`, undefined, { token: approver })).status).toBe(200);
    expect((await t.call('POST', `/api/v1/batches/${cancel.body.batch.id}/pause`, undefined, { token: approver })).status).toBe(403);
    await t.call('POST', `/api/v1/batches/${decide.body.batch.id}/cancel`);
    await t.call('POST', `/api/v1/batches/${cancel.body.batch.id}/cancel`);
  });

  it('audit type batch lists batch.started, batch.paused, batch.resumed and batch.cancelled; /metrics counts batches by state', async () => {
    const events = (await t.call('GET', '/api/v1/audit-events?type=batch&limit=500')).body.events;
    for (const action of ['batch.started', 'batch.paused', 'batch.resumed', 'batch.cancelled']) expect(events.map((ev: any) => ev.action)).toContain(action);
    const started = events.find((ev: any) => ev.action === 'batch.started');
    expect(started).toMatchObject({ actor: 'api', actorKind: 'workspace', target: expect.stringMatching(/^bat_/) });
    expect(started.detail).toMatchObject({ operation: expect.any(String), total: expect.any(Number), ratePerSecond: expect.any(Number) });
    const { batches } = (await t.call('GET', '/api/v1/batches')).body;
    const count = (state: string) => batches.filter((b: any) => b.state === state).length;
    const metrics = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${WORKSPACE_PASSWORD}` } }).then((r) => r.text());
    for (const state of ['running', 'paused', 'completed', 'cancelled'])
      expect(metrics).toContain(`orders_service_batches{state="${state}"} ${count(state)}`);
    expect(count('completed')).toBeGreaterThan(0);
  });
});

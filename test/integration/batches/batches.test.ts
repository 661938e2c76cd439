// Batches over real HTTP (contract 16, issue 32): dry run, refusals skipped with the single call's message, states and
// their 409s, audit and metrics, what an expired lease means, two services on one database (exactly once, the rate cap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { WORKSPACE_PASSWORD } from '../../support/test-service.js';
import { e, eventually, graphs, n, publishFlow, startBody, startOrdersService, tokenFor } from '../orders/orders-support.js';
import { UNCERTAIN_OUTCOME } from '../../../src/application/batches/batch-worker.js';

let t: TestService;
/** Short lease, poll, recovery and creator memory, so what takes seconds in production takes a moment here. */
const FAST = { batches: { leaseMs: 1_500, pollMs: 100, recoverMs: 200, creatorTtlMs: 200 } };

beforeAll(async () => {
  t = await startOrdersService({ start: FAST });
  await publishFlow(t, 'pay-wait', graphs.eventWait);
  await publishFlow(t, 'approve', graphs.approval);
});
afterAll(async () => {
  await t?.close();
});

/** Starts `count` orders on `flow`, titled `<tag> <i>`; answers their ids in that order. */
async function orders(flow: string, count: number, tag: string, input: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  // Ten at a time; each keeps its index, so ids come back in the order of their titles.
  for (let i = 0; i < count; i += 10) {
    const started = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, (_, j) => t.call('POST', '/api/v1/orders', startBody(flow, { title: `${tag} ${i + j}`, ...input }))),
    );
    for (const res of started) {
      if (res.status !== 201) throw new Error(res.text);
      ids.push(res.body.orderId);
    }
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
  it('an unknown operation is a 400 naming it; migrate without its input is a 400 naming the input', async () => {
    const res = await start({ operation: 'archive', orderIds: ['ord_x'] });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: 'operation', message: 'Unknown operation: archive' });
    const migrate = await start({ operation: 'migrate', orderIds: ['ord_x'] });
    expect(migrate.status).toBe(400);
    expect(migrate.body.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['input.flowId', 'input.fromVersion']));
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

describe('an order whose node stopped mid-way (its lease expired) is run again only when it cannot be twice (docs/batches.md "Exactly once")', () => {
  const db = () => t.service.ctx.db;
  const xmin = async (orderId: string) => (await db().query('SELECT xmin::text AS v FROM orders WHERE id = $1', [orderId])).rows[0].v as string;
  /** Makes an order of a paused batch look claimed by a node that died: processing, lease run out, the order's version then. */
  const abandon = (batchId: string, orderId: string, mark: string) =>
    db().query(
      `UPDATE batch_items SET state = 'processing', claim = 'dead-claim', worker = 'dead-node', started_at = clock_timestamp(),
         lease_until = clock_timestamp() - interval '1 second', order_mark = $3 WHERE batch_id = $1 AND order_id = $2`,
      [batchId, orderId, mark],
    );
  /**
   * A paused batch of `operation` over `orderIds` with nothing recorded yet: it is started over ids that name no
   * order (whatever the worker takes before the pause is skipped harmlessly), then pointed at the real orders.
   */
  const pausedBatch = async (body: Record<string, unknown>, orderIds: string[]) => {
    const res = await start({ ratePerSecond: 1000, ...body, orderIds: orderIds.map((_, i) => `ord_placeholder_${i}`) });
    expect(res.status).toBe(202);
    const id = res.body.batch.id as string;
    await t.call('POST', `/api/v1/batches/${id}/pause`);
    await eventually(async () => (await db().query("SELECT count(*)::int AS n FROM batch_items WHERE batch_id = $1 AND state = 'processing'", [id])).rows[0].n === 0);
    await db().query(
      `UPDATE batch_items i SET order_id = ($2::text[])[i.seq], state = 'pending', claim = NULL, worker = NULL, started_at = NULL, finished_at = NULL, error = NULL
       WHERE batch_id = $1`,
      [id, orderIds],
    );
    await db().query("UPDATE batches SET done = 0, failed = 0, skipped = 0, state = 'paused', finished_at = NULL WHERE id = $1", [id]);
    return id;
  };

  it('twice the same event: the order the dead node already changed is failed, not delivered again; an unchanged one runs', async () => {
    const twice = {
      nodes: [n('start', 'trigger.api'), n('first', 'wait.event', { event: 'ping' }), n('second', 'wait.event', { event: 'ping' }), n('done', 'end', { outcome: 'completed' }), n('late', 'end', { outcome: 'cancelled' })],
      edges: [e('start', 'first'), e('first', 'second', 'received'), e('second', 'done', 'received'), e('first', 'late', 'timeout'), e('second', 'late', 'timeout')],
    };
    await publishFlow(t, 'ping-twice', twice);
    const fresh = await orders('ping-twice', 2, 'lease');
    const id = await pausedBatch({ operation: 'deliver_event', input: { event: 'ping' } }, fresh);
    // The dead node delivered to fresh[0] (committed) and died before recording it; fresh[1] it never reached.
    const before = await xmin(fresh[0]);
    expect((await t.call('POST', `/api/v1/orders/${fresh[0]}/events`, { event: 'ping' })).body.delivered).toBe(true);
    await abandon(id, fresh[0], before);
    await abandon(id, fresh[1], await xmin(fresh[1]));
    await t.call('POST', `/api/v1/batches/${id}/resume`);
    const done = await eventually(async () => {
      const got = (await t.call('GET', `/api/v1/batches/${id}`)).body;
      return got.batch.state === 'completed' ? got : null;
    });
    expect(done.batch).toMatchObject({ done: 1, failed: 1, skipped: 0 });
    expect(done.results.find((r: any) => r.orderId === fresh[0])).toEqual({ orderId: fresh[0], outcome: 'failed', error: UNCERTAIN_OUTCOME });
    const timeline = (await t.call('GET', `/api/v1/orders/${fresh[0]}`)).body.timeline.filter((x: any) => x.kind === 'event.received');
    expect(timeline).toHaveLength(1);
    expect(await statusOf(fresh[0])).toBe('waiting');
    expect((await t.call('GET', `/api/v1/orders/${fresh[1]}`)).body.timeline.filter((x: any) => x.kind === 'event.received')).toHaveLength(1);
  });

  it('restart is run again even when the order changed: its key per batch and order answers the order the dead node started', async () => {
    const [fresh] = await orders('pay-wait', 1, 'lease-restart');
    await t.call('POST', `/api/v1/orders/${fresh}/cancel`, {});
    const id = await pausedBatch({ operation: 'restart' }, [fresh]);
    // The dead node's restart committed (with the batch's key), then the order changed again.
    const first = await t.call('POST', `/api/v1/orders/${fresh}/restart`, undefined, { headers: { 'idempotency-key': `batch:${id}:${fresh}` } });
    expect(first.status).toBe(201);
    await abandon(id, fresh, '1');
    await t.call('POST', `/api/v1/batches/${id}/resume`);
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${id}`)).body.batch.state === 'completed');
    expect((await t.call('GET', `/api/v1/batches/${id}`)).body.batch).toMatchObject({ done: 1, failed: 0 });
    const { rows } = await db().query('SELECT id FROM orders WHERE restarted_from = $1', [fresh]);
    expect(rows.map((r) => r.id)).toEqual([first.body.orderId]);
  });
});

describe("the creator's standing is read again as the batch runs (spec \"Roles\": every request checks the role)", () => {
  const db = () => t.service.ctx.db;
  it("a revoked token's batch does nothing more: each remaining order is skipped saying why", async () => {
    const created = await t.call('POST', '/api/v1/api-tokens', { name: 'revoked-later', role: 'operator', expiresIn: '90d' });
    const ids = await orders('pay-wait', 3, 'revoked');
    const res = await start({ operation: 'cancel', orderIds: ids, ratePerSecond: 1 }, created.body.secret);
    expect(res.status).toBe(202);
    await t.call('POST', `/api/v1/batches/${res.body.batch.id}/pause`);
    await t.call('DELETE', `/api/v1/api-tokens/${created.body.token.id}`);
    await new Promise((r) => setTimeout(r, 300)); // past the worker's memory of the creator (FAST: 200 ms)
    await t.call('POST', `/api/v1/batches/${res.body.batch.id}/resume`);
    await db().query('UPDATE batches SET rate_per_second = 1000 WHERE id = $1', [res.body.batch.id]);
    const got = await eventually(async () => {
      const b = (await t.call('GET', `/api/v1/batches/${res.body.batch.id}`)).body;
      return b.batch.state === 'completed' ? b : null;
    });
    const refused = got.results.filter((r: any) => r.outcome === 'skipped');
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const r of refused) expect(r.error).toBe("The batch's creator token:revoked-later was revoked: nothing more is done as them");
    for (const r of refused) expect(await statusOf(r.orderId)).toBe('waiting');
  });
});

describe('two services on one database (contract 16: each order at most once per batch, the rate cap across all nodes)', () => {
  let second: TestService;
  beforeAll(async () => {
    second = await startOrdersService({ database: t.database, start: FAST });
  });
  afterAll(async () => {
    await second?.close();
  });
  const db = () => t.service.ctx.db;
  const workers = async (batchId: string) =>
    (await db().query('SELECT DISTINCT worker FROM batch_items WHERE batch_id = $1', [batchId])).rows.map((r) => r.worker as string);
  const finish = (id: string, ms = 30_000) =>
    eventually(async () => {
      const got = (await second.call('GET', `/api/v1/batches/${id}`)).body;
      return got.batch.state === 'completed' ? got : null;
    }, ms, 'the batch to complete');

  it('100 orders at 1000 per second: both nodes work the batch and each order is cancelled exactly once', async () => {
    const ids = await orders('pay-wait', 100, 'two-nodes');
    const res = await start({ operation: 'cancel', filter: { q: 'two-nodes', flowId: 'pay-wait' }, ratePerSecond: 1000 });
    expect(res.body.batch.total).toBe(100);
    const { batch } = await finish(res.body.batch.id);
    expect(batch).toMatchObject({ done: 100, skipped: 0, failed: 0 });
    expect(await workers(batch.id)).toHaveLength(2);
    const { rows } = await db().query(
      `SELECT o.id, (SELECT count(*)::int FROM order_timeline x WHERE x.order_id = o.id AND x.kind = 'order.cancelled') AS cancels,
              (SELECT count(*)::int FROM outbox x WHERE x.order_id = o.id AND x.event = 'order.cancelled') AS events
       FROM orders o WHERE o.id = ANY($1)`,
      [ids],
    );
    expect(rows.filter((r) => r.cancels !== 1 || r.events !== 1)).toEqual([]);
    expect(rows).toHaveLength(100);
  });

  it('never more than ratePerSecond orders begin in any second, counted from the stored start times of both nodes', async () => {
    const RATE = 25;
    const ids = await orders('pay-wait', 60, 'paced');
    const res = await second.call('POST', '/api/v1/batches', { operation: 'deliver_event', orderIds: ids, input: { event: 'payment.received' }, ratePerSecond: RATE });
    expect(res.status).toBe(202);
    const { batch } = await finish(res.body.batch.id);
    expect(batch).toMatchObject({ done: 60 });
    expect(await workers(batch.id)).toHaveLength(2);
    // Any RATE + 1 consecutive starts span at least a second: no window of one second holds more than RATE.
    const [{ crowded, span, busiest }] = (
      await db().query(
        `SELECT (SELECT count(*)::int FROM (SELECT started_at, lead(started_at, $2) OVER (ORDER BY started_at) AS later FROM batch_items WHERE batch_id = $1) s
                  WHERE later < started_at + interval '1 second') AS crowded,
                (SELECT extract(epoch FROM max(started_at) - min(started_at))::float8 FROM batch_items WHERE batch_id = $1) AS span,
                (SELECT max(n)::int FROM (SELECT count(*) AS n FROM batch_items WHERE batch_id = $1 GROUP BY date_trunc('second', started_at)) b) AS busiest`,
        [batch.id, RATE],
      )
    ).rows;
    expect(crowded).toBe(0);
    expect(busiest).toBeLessThanOrEqual(RATE);
    expect(span).toBeGreaterThanOrEqual((60 - 1) / RATE);
    expect(await statusOf(ids[0])).toBe('completed');
  });
});

describe('order list filters (contract 16): GET /api/v1/orders, GET /api/v1/orders/totals and find_orders take the same keys', () => {
  const ids: Record<string, string> = {};
  const created: Record<string, number> = {};
  beforeAll(async () => {
    const graph = (node: string) => ({
      nodes: [n('start', 'trigger.api'), n(node, 'wait.event', { event: 'payment.received' }), n('done', 'end', { outcome: 'completed' }), n('late', 'end', { outcome: 'cancelled' })],
      edges: [e('start', node), e(node, 'done', 'received'), e(node, 'late', 'timeout')],
    });
    const one = async (key: string, lines: Record<string, unknown>[]) => {
      const res = await t.call('POST', '/api/v1/orders', startBody('filtered', { title: `filters ${key}`, lines }));
      expect(res.status, res.text).toBe(201);
      ids[key] = res.body.orderId;
      await t.advance(1_000);
    };
    await publishFlow(t, 'filtered', graph('pay'));
    await one('v1', [{ sku: 'F-SKU-A', qty: 1, unitPrice: 5, sellerId: 'seller_x' }]);
    await publishFlow(t, 'filtered', graph('settle'));
    await one('v2b', [{ sku: 'F-SKU-B', qty: 1, unitPrice: 5, sellerId: 'seller_y' }]);
    await one('v2ab', [{ sku: 'F-SKU-A', qty: 1, unitPrice: 5 }, { sku: 'F-SKU-B', qty: 2, unitPrice: 5 }]);
    const rows = (await t.call('GET', '/api/v1/orders?flowId=filtered')).body.orders;
    for (const r of rows) for (const [key, id] of Object.entries(ids)) if (r.id === id) created[key] = r.createdAt;
  });
  const list = async (query: string) => {
    const res = await t.call('GET', `/api/v1/orders?${query}`);
    expect(res.status, `${query}: ${res.text}`).toBe(200);
    return res.body.orders.map((o: { id: string }) => o.id);
  };

  it('flowId, flowVersion (with flowId), waitingAtNode, sellerId, sku, createdAfter and createdBefore narrow the list, newest first', async () => {
    expect(await list('flowId=filtered')).toEqual([ids.v2ab, ids.v2b, ids.v1]);
    expect(await list('flowId=filtered&flowVersion=2')).toEqual([ids.v2ab, ids.v2b]);
    expect(await list('flowId=filtered&flowVersion=1')).toEqual([ids.v1]);
    expect(await list('waitingAtNode=pay&flowId=filtered')).toEqual([ids.v1]);
    expect(await list('waitingAtNode=settle')).toEqual([ids.v2ab, ids.v2b]);
    expect(await list('sellerId=seller_y')).toEqual([ids.v2b]);
    expect(await list('sku=F-SKU-A')).toEqual([ids.v2ab, ids.v1]);
    expect(await list(`flowId=filtered&createdAfter=${created.v2b}`)).toEqual([ids.v2ab, ids.v2b]);
    expect(await list(`flowId=filtered&createdBefore=${created.v2b}`)).toEqual([ids.v2b, ids.v1]);
    expect(await list(`sku=F-SKU-B&createdBefore=${created.v2b}&waitingAtNode=settle`)).toEqual([ids.v2b]);
    const bad = await t.call('GET', '/api/v1/orders?flowVersion=2');
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toContainEqual({ path: 'flowVersion', message: 'needs flowId (versions are numbered per flow)' });
    // An order that moved on is no longer parked there.
    await t.call('POST', `/api/v1/orders/${ids.v1}/events`, { event: 'payment.received' });
    expect(await list('waitingAtNode=pay&flowId=filtered')).toEqual([]);
    // A cursor pages the same filter only.
    const first = (await t.call('GET', '/api/v1/orders?flowId=filtered&limit=1')).body;
    expect((await t.call('GET', `/api/v1/orders?flowId=filtered&flowVersion=2&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).status).toBe(400);
    expect((await t.call('GET', `/api/v1/orders?flowId=filtered&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).body.orders[0].id).toBe(ids.v2b);
  });

  it('totals and the find_orders tool read the same keys', async () => {
    const totals = await t.call('GET', '/api/v1/orders/totals?flowId=filtered&flowVersion=2&sku=F-SKU-B');
    expect(totals.body).toMatchObject({ count: 2, totalUsd: 20 });
    const operator = { kind: 'workspace' as const, id: null, role: 'operator' as const, actor: 'api', via: 'bearer' as const };
    const found = await t.service.ctx.operations.callByName('find_orders', operator, { sellerId: 'seller_x', flowId: 'filtered' }, { ip: null });
    expect((found as { orders: { id: string }[] }).orders.map((o) => o.id)).toEqual([ids.v1]);
    await expect(t.service.ctx.operations.callByName('find_orders', operator, { flowVersion: 2 }, { ip: null })).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('waitingAtNode also finds a step parked on its retry timer', async () => {
    await publishFlow(t, 'flaky', { nodes: [n('start', 'trigger.api'), n('charge', 'test.effect', { fail: 'once' }), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'charge'), e('charge', 'done')] });
    const res = await t.call('POST', '/api/v1/orders', startBody('flaky', { title: 'filters flaky' }));
    const found = await list('waitingAtNode=charge');
    const pending = (await t.service.ctx.db.query("SELECT count(*)::int AS n FROM timers WHERE order_id = $1 AND kind = 'step.retry' AND fired_at IS NULL", [res.body.orderId])).rows[0].n;
    // The retry is due a second after the first attempt: while it was pending, the list found the order there.
    if (pending === 1) expect(found).toEqual([res.body.orderId]);
    expect(await list('waitingAtNode=start&flowId=flaky')).toEqual([]);
  });

  it('the /orders page takes the same keys as query parameters (a date for the creation bounds too)', async () => {
    const page = await fetch(`${t.url}/orders?flowId=filtered&flowVersion=2&sku=F-SKU-B`, { headers: { authorization: `Bearer ${WORKSPACE_PASSWORD}` } });
    const text = await page.text();
    expect(page.status).toBe(200);
    const rows = [...text.matchAll(/data-order-id="([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual([ids.v2ab, ids.v2b]);
    const rowsOf = async (query: string) => {
      const res = await fetch(`${t.url}/orders?${query}`, { headers: { authorization: `Bearer ${WORKSPACE_PASSWORD}` } });
      expect(res.status, query).toBe(200);
      return [...(await res.text()).matchAll(/data-order-id="([^"]+)"/g)].map((m) => m[1]);
    };
    expect(await rowsOf('flowId=filtered&createdAfter=2000-01-01')).toEqual([ids.v2ab, ids.v2b, ids.v1]);
    expect(await rowsOf('flowId=filtered&createdBefore=2000-01-01')).toEqual([]);
    expect(await rowsOf(`flowId=filtered&createdBefore=${created.v2b}`)).toEqual([ids.v2b, ids.v1]);
    const bad = await fetch(`${t.url}/orders?flowVersion=2`, { headers: { authorization: `Bearer ${WORKSPACE_PASSWORD}` } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('needs flowId');
  });
});

/** Rows PostgreSQL read from `relation` (returned, filtered out, or rechecked) in an EXPLAIN ANALYZE JSON plan. */
function rowsRead(plan: Record<string, any>, relation: string): number {
  const own =
    plan['Relation Name'] === relation
      ? (plan['Actual Rows'] + (plan['Rows Removed by Filter'] ?? 0) + (plan['Rows Removed by Index Recheck'] ?? 0)) * plan['Actual Loops']
      : 0;
  return own + ((plan.Plans as Record<string, any>[] | undefined) ?? []).reduce((sum, p) => sum + rowsRead(p, relation), 0);
}

describe('at 100,000 orders (docs/batches.md "Filters"): each filter reads a bounded share of the orders; a batch takes at most 100,000', () => {
  const BULK = 100_001;
  beforeAll(async () => {
    const db = t.service.ctx.db;
    const id = "'ord_bulk' || lpad(g::text, 8, '0')";
    await db.query(
      `INSERT INTO orders (id, flow_id, flow_version, model, channel, title, currency, fx_rate, input, status, instance_id, compiler_version, created_at, updated_at)
       SELECT ${id}, 'bulk', 1 + g % 2, 'b2b', 'web', 'Bulk ' || g, 'USD', 1, '{}', CASE WHEN g % 10 = 0 THEN 'waiting' ELSE 'completed' END, 'inst', 1,
              1600000000000 + g * 1000, 1600000000000 + g * 1000
       FROM generate_series(1, $1::int) g`,
      [BULK],
    );
    await db.query(
      `INSERT INTO order_lines (order_id, line_no, sku, qty, seller_id)
       SELECT ${id}, 1, CASE WHEN g IN (7, 70007, 99999) THEN 'RARE-SKU' ELSE 'BULK-' || (g % 1000) END, 1,
              CASE WHEN g IN (11, 50011) THEN 'seller_rare' ELSE 'seller_' || (g % 50) END
       FROM generate_series(1, $1::int) g`,
      [BULK],
    );
    await db.query(
      `INSERT INTO order_waits (order_id, node_id, run, generation, kind, title, event, since, status)
       SELECT ${id}, CASE WHEN g % 10 = 0 THEN 'hold_here' ELSE 'rare_node' END, 1, 1, 'event', 'Waiting', 'payment.received', 1600000000000, 'open'
       FROM generate_series(1, $1::int) g WHERE g % 10 = 0 OR g IN (13, 60013)`,
      [BULK],
    );
    await db.query('ANALYZE orders; ANALYZE order_lines; ANALYZE order_waits; ANALYZE timers');
  }, 120_000);

  const explain = async (filters: Record<string, unknown>) => {
    const { listSql } = await import('../../../src/orders/order-list.js');
    const { text, params } = listSql(filters, 'substring', null, 50);
    const [{ 'QUERY PLAN': [plan] }] = (await t.service.ctx.db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)).rows;
    return plan.Plan as Record<string, any>;
  };

  it('common and rare values of each key: no sequential scan of orders or lines, and at most a few thousand orders read', async () => {
    const at = (g: number) => 1600000000000 + g * 1000;
    const cases: Record<string, unknown>[] = [
      { flowId: 'bulk' },
      { flowId: 'bulk', flowVersion: 2 },
      { flowId: 'bulk', status: 'waiting' },
      { sku: 'BULK-5' },
      { sku: 'RARE-SKU' },
      { sellerId: 'seller_3' },
      { sellerId: 'seller_rare' },
      { waitingAtNode: 'hold_here' },
      { waitingAtNode: 'rare_node' },
      { createdAfter: at(50_000) },
      { createdBefore: at(100) },
      { flowId: 'bulk', createdAfter: at(40_000), createdBefore: at(40_100) },
      { flowId: 'bulk', sellerId: 'seller_7', waitingAtNode: 'hold_here' },
    ];
    for (const filters of cases) {
      const plan = await explain(filters);
      const text = JSON.stringify(plan);
      const label = `${JSON.stringify(filters)}: ${text.slice(0, 3000)}`;
      // The whole table is never read: a key's own index, or the newest-first walk stopping after the page.
      expect(text, label).not.toMatch(/"Node Type":"Seq Scan",[^{}]*"Relation Name":"(orders|order_lines)"/);
      // At most the matches of a common parked node (10% of the orders, its worst case: about 50 ms here), else a few pages.
      const bound = JSON.stringify(filters).includes('hold_here') ? 10_001 : 3_000;
      expect(rowsRead(plan, 'orders'), label).toBeLessThanOrEqual(bound);
    }
  });

  it('a filter matching more than 100,000 orders is a 400 for a dry run and a start, and writes nothing', async () => {
    const before = (await t.service.ctx.db.query('SELECT (SELECT count(*) FROM batches)::int AS b, (SELECT count(*) FROM batch_items)::int AS i')).rows[0];
    for (const dryRun of [true, false]) {
      const res = await start({ operation: 'cancel', filter: { flowId: 'bulk' }, dryRun });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('The filter matches more than 100,000 orders');
    }
    const after = (await t.service.ctx.db.query('SELECT (SELECT count(*) FROM batches)::int AS b, (SELECT count(*) FROM batch_items)::int AS i')).rows[0];
    expect(after).toEqual(before);
    const half = await start({ operation: 'cancel', filter: { flowId: 'bulk', flowVersion: 2 }, dryRun: true });
    expect(half.body.count).toBe(50_001);
    expect(half.body.sample[0]).toBe('ord_bulk00100001');
  });
});

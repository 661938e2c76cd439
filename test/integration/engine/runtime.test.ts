// Engine behaviour through the runtime API on real PostgreSQL (and Redis when configured):
// approvals, event waits, rollback, cancel, loops, continue-as-new (contract section 5; spec "States and transitions").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e, n, startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => {
  await h?.close();
});

const DAY = 86_400_000;

describe('human.approval', () => {
  let version: number;
  beforeAll(async () => {
    version = await h.publish('approval-flow', {
      nodes: [
        n('start', 'trigger.api'),
        n('review', 'human.approval', { title: 'Review {{order.title}}', assignee: 'finance' }, 'Finance review'),
        n('work', 'test.effect'),
        n('done', 'end', { outcome: 'completed' }),
        n('no', 'end', { outcome: 'declined', reason: 'Rejected in review' }),
        n('late', 'end', { outcome: 'failed', reason: 'Nobody decided' }),
      ],
      edges: [e('start', 'review'), e('review', 'work', 'approved'), e('review', 'no', 'rejected'), e('review', 'late', 'escalated'), e('work', 'done'), e('done', 'done') ].slice(0, 6 - 1),
    });
  });

  it('waits with the templated title, assignee and amount, then approved continues (spec "Approval branches")', async () => {
    const id = await h.startOrder('approval-flow', version, { title: 'Big order' });
    let s = await h.state(id);
    expect(s.status).toBe('waiting');
    expect(s.waits).toEqual([
      expect.objectContaining({ nodeId: 'review', kind: 'approval', title: 'Review Big order', assignee: 'finance', amount: 10 }),
    ]);
    expect(s.waits[0].deadline - s.waits[0].since).toBe(2 * DAY); // default timeout 2 days
    expect(s.nodes.review.status).toBe('waiting');
    await h.engine.runtime.decideApproval(id, 'review', 'approved', 'ann@example.com', 'fine');
    s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.review.output).toEqual({ decision: 'approved', by: 'ann@example.com', note: 'fine', outcome: 'approved' });
    expect(s.nodes.no.status).toBe('skipped');
    expect(s.edges.find((x: any) => x.from === 'review' && x.branch === 'approved').status).toBe('active');
    expect(s.edges.find((x: any) => x.from === 'review' && x.branch === 'rejected').status).toBe('inactive');
  });

  it('rejected takes the rejected branch; a second decision is refused with 409 (spec "Decide an approval")', async () => {
    const id = await h.startOrder('approval-flow', version);
    await h.engine.runtime.decideApproval(id, 'review', 'rejected', 'bob@example.com', null);
    const s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('Rejected in review');
    await expect(h.engine.runtime.decideApproval(id, 'review', 'approved', 'x', null)).rejects.toMatchObject({
      kind: 'conflict',
      message: 'That node is not waiting for an approval',
    });
  });

  it('nobody deciding within the timeout escalates, by "timeout" (spec "Approval branches": timeout)', async () => {
    const id = await h.startOrder('approval-flow', version);
    await h.t.advance(2 * DAY - 60_000);
    expect((await h.state(id)).status).toBe('waiting');
    await h.t.advance(60_000);
    const s = await h.state(id);
    expect(s.nodes.review.output).toMatchObject({ outcome: 'escalated', by: 'timeout' });
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Nobody decided');
  });
});

describe('wait.event', () => {
  let version: number;
  beforeAll(async () => {
    version = await h.publish('event-flow', {
      nodes: [
        n('start', 'trigger.api'),
        n('pay', 'wait.event', { event: 'payment.received', timeout: '3d' }),
        n('done', 'end', { outcome: 'completed' }),
        n('gave_up', 'end', { outcome: 'cancelled', reason: 'No payment' }),
      ],
      edges: [e('start', 'pay'), e('pay', 'done', 'received'), e('pay', 'gave_up', 'timeout')],
    });
  });

  it('delivers to the waiting node and stores payload + event + at in vars.<event with _> (spec "Wait-for-event node")', async () => {
    const id = await h.startOrder('event-flow', version);
    expect(await h.engine.runtime.deliverEvent(id, 'other.event', {})).toEqual({ delivered: false, waitingFor: ['payment.received'] });
    const res = await h.engine.runtime.deliverEvent(id, 'payment.received', { amount: 10 });
    expect(res).toEqual({ delivered: true, nodeId: 'pay' });
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.vars.payment_received).toMatchObject({ amount: 10, event: 'payment.received', at: expect.any(Number) });
    // Nothing waits any more: a repeat is not delivered and changes nothing.
    expect(await h.engine.runtime.deliverEvent(id, 'payment.received', { amount: 99 })).toEqual({ delivered: false, waitingFor: [] });
    expect((await h.state(id)).vars.payment_received.amount).toBe(10);
  });

  it('times out onto its timeout branch (spec "Wait-for-event branches")', async () => {
    const id = await h.startOrder('event-flow', version);
    await h.t.advance(3 * DAY + 1);
    const s = await h.state(id);
    expect(s.status).toBe('cancelled');
    expect(s.nodes.pay.branches).toEqual(['timeout']);
  });
});

describe('rollback (contract section 5 "Run outcomes")', () => {
  it('a terminal error undoes completed steps in reverse, ends failed with the error as reason, not retried', async () => {
    const v = await h.publish('terminal-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('b', 'test.effect'), n('c', 'test.effect', { fail: 'terminal' }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'c'), e('c', 'done')],
    });
    const id = await h.startOrder('terminal-flow', v);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('c refused');
    const fx = await h.effects(id);
    // c's own write was rolled back with its savepoint: a failing step leaves no partial writes.
    expect(fx.map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'b:do', 'b:undo', 'a:undo']);
    expect(s.nodes.a.status).toBe('rolled_back');
    expect(s.nodes.c.status).toBe('failed');
    expect(s.nodes.done.status).toBe('skipped');
    expect(s.rollback).toEqual({ outcome: 'failed', error: null });
  });

  it('a retryable error is retried by its policy on durable timers, then rolled_back (order.failed)', async () => {
    const v = await h.publish('retry-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('flaky', 'test.effect', { fail: 'retryable' }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'a'), e('a', 'flaky'), e('flaky', 'done')],
    });
    const id = await h.startOrder('retry-flow', v);
    let s = await h.state(id);
    expect(s.status).toBe('running');
    expect(s.nodes.flaky.error).toBe('flaky flaked');
    const retries = (st: any) => st.timeline.filter((x: any) => x.kind === 'node.retry').length;
    expect(retries(s)).toBe(1);
    await h.t.advance(500);
    expect(retries(await h.state(id))).toBe(1); // backoff 1 s: not yet (the test clock also runs at real speed)
    await h.t.advance(500); // attempt 2 after 1 s
    s = await h.state(id);
    expect(retries(s)).toBe(2);
    expect(s.status).toBe('running');
    await h.t.advance(2000); // attempt 3 after 2 s more (factor 2), the last
    s = await h.state(id);
    expect(s.status).toBe('rolled_back');
    expect(s.nodes.flaky.status).toBe('failed');
    // Failed attempts leave no writes; the completed step was undone.
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'a:undo']);
    const { rows } = await h.t.service.ctx.db.query("SELECT event, data FROM outbox WHERE order_id = $1 AND event = 'order.failed'", [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].data).toMatchObject({ outcome: 'failed', reason: 'flaky flaked', node: { id: 'flaky', type: 'test.effect', error: 'flaky flaked' } });
  });

  it('a step that fails once and then succeeds continues normally', async () => {
    const v = await h.publish('once-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect', { fail: 'once' }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'a'), e('a', 'done')],
    });
    const id = await h.startOrder('once-flow', v);
    await h.t.advance(1000);
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.a.output).toEqual({ did: 'a', attempt: 2 });
  });

  it('a failing compensation is recorded in rollback.error and does not stop the other undos', async () => {
    const v = await h.publish('bad-undo-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('b', 'test.effect', { failUndo: true }), n('c', 'test.effect', { fail: 'terminal' }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'c'), e('c', 'done')],
    });
    const id = await h.startOrder('bad-undo-flow', v);
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.rollback.error).toContain('b undo broke');
    // b's undo write was rolled back with its savepoint; a's undo still ran.
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'b:do', 'a:undo']);
    expect(s.nodes.b.status).toBe('succeeded');
    expect(s.nodes.a.status).toBe('rolled_back');
  });

  it('a wired failure branch takes the failure path instead of rolling back', async () => {
    const v = await h.publish('failure-branch-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect', { fail: 'terminal' }), n('ok', 'end', { outcome: 'completed' }), n('handled', 'end', { outcome: 'completed', reason: 'handled' })],
      edges: [e('start', 'a'), e('a', 'ok'), e('a', 'handled', 'failed')],
    });
    const id = await h.startOrder('failure-branch-flow', v);
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.handled.status).toBe('succeeded');
  });

  it('End declined undoes completed steps first and emits order.declined', async () => {
    const v = await h.publish('declined-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('no', 'end', { outcome: 'declined', reason: 'policy' })],
      edges: [e('start', 'a'), e('a', 'no')],
    });
    const id = await h.startOrder('declined-flow', v);
    const s = await h.state(id);
    expect(s.status).toBe('declined');
    expect(s.reason).toBe('policy');
    expect(s.rollback).toEqual({ outcome: 'declined', error: null });
    const { rows } = await h.t.service.ctx.db.query('SELECT event, data FROM outbox WHERE order_id = $1', [id]);
    expect(rows.map((r) => r.event)).toEqual(['order.declined']);
    expect(rows[0].data).toMatchObject({ outcome: 'declined', reason: 'policy', order: { id, total: 10, currency: 'USD', baseTotal: 10 } });
  });
});

describe('cancel (spec "Cancel")', () => {
  it('while waiting: approval marked cancelled, timers gone, cancel-undo in reverse, second cancel refused', async () => {
    const v = await h.publish('cancel-flow', {
      nodes: [n('start', 'trigger.api'), n('a', 'test.effect'), n('b', 'test.effect'), n('ok', 'human.approval'), n('done', 'end', { outcome: 'completed' }), n('no', 'end', { outcome: 'declined' }), n('esc', 'end', { outcome: 'failed' })],
      edges: [e('start', 'a'), e('a', 'b'), e('b', 'ok'), e('ok', 'done', 'approved'), e('ok', 'no', 'rejected'), e('ok', 'esc', 'escalated')],
    });
    const id = await h.startOrder('cancel-flow', v);
    expect((await h.state(id)).status).toBe('waiting');
    await h.engine.runtime.cancel(id, 'Customer changed their mind');
    const s = await h.state(id);
    expect(s.status).toBe('cancelled');
    expect(s.reason).toBe('Customer changed their mind');
    expect(s.waits).toEqual([]);
    const db = h.t.service.ctx.db;
    const waits = await db.query('SELECT status FROM order_waits WHERE order_id = $1', [id]);
    expect(waits.rows).toEqual([{ status: 'cancelled' }]);
    const timers = await db.query('SELECT id FROM timers WHERE order_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [id]);
    expect(timers.rows).toEqual([]);
    expect((await h.effects(id)).map((x) => `${x.node_id}:${x.kind}`)).toEqual(['a:do', 'b:do', 'b:cancel', 'a:cancel']);
    await expect(h.engine.runtime.cancel(id, 'again')).rejects.toMatchObject({ kind: 'conflict' });
    // The escalation timer never fires a cancelled order.
    await h.t.advance(3 * DAY);
    expect((await h.state(id)).status).toBe('cancelled');
    const events = await db.query('SELECT event, data FROM outbox WHERE order_id = $1', [id]);
    expect(events.rows.map((r) => r.event)).toEqual(['order.cancelled']);
    expect(events.rows[0].data).toMatchObject({ outcome: 'cancelled', reason: 'Customer changed their mind' });
  });

  it('cancelling a finished order is refused (409) and changes nothing', async () => {
    const v = await h.publish('quick-flow', { nodes: [n('start', 'trigger.api'), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'done')] });
    const id = await h.startOrder('quick-flow', v);
    await expect(h.engine.runtime.cancel(id, 'late')).rejects.toMatchObject({ kind: 'conflict' });
    expect((await h.state(id)).status).toBe('completed');
  });
});

describe('logic.loop and continue-as-new', () => {
  it('a loop takes exhausted after maxPasses (contract section 5 loops)', async () => {
    const v = await h.publish('loop-flow', {
      nodes: [
        n('start', 'trigger.api'),
        n('loop', 'logic.loop', { maxPasses: 3 }),
        n('wait', 'wait.event', { event: 'ping', timeout: '1d' }),
        n('done', 'end', { outcome: 'completed' }),
        n('gave_up', 'end', { outcome: 'failed', reason: 'Too many passes' }),
      ],
      edges: [e('start', 'loop'), e('loop', 'wait', 'next'), e('loop', 'gave_up', 'exhausted'), e('wait', 'loop', 'received'), e('wait', 'done', 'timeout')],
    });
    const id = await h.startOrder('loop-flow', v);
    for (let i = 0; i < 3; i++) expect(await h.engine.runtime.deliverEvent(id, 'ping', { i })).toMatchObject({ delivered: true });
    const s = await h.state(id);
    expect(s.status).toBe('failed');
    expect(s.reason).toBe('Too many passes');
    expect(s.nodes.wait.runs).toBe(3);
    expect(s.nodes.loop.runs).toBe(4);
  });

  it('continue-as-new raises generation, changes instanceId, keeps vars and the timeline', async () => {
    const v = await h.publish('period-flow', {
      nodes: [
        n('start', 'trigger.api'),
        n('charge', 'test.effect', { emit: 'order.paid', setVar: 'lastCharge' }),
        n('period', 'wait.delay', { duration: '30d' }),
        n('next', 'logic.continue'),
      ],
      edges: [e('start', 'charge'), e('charge', 'period'), e('period', 'next')],
    });
    const id = await h.startOrder('period-flow', v);
    const first = await h.state(id);
    expect(first.generation).toBe(1);
    expect(first.status).toBe('waiting');
    await h.t.advance(30 * DAY);
    const second = await h.state(id);
    expect(second.generation).toBe(2);
    expect(second.instanceId).not.toBe(first.instanceId);
    expect(second.status).toBe('waiting');
    expect(second.vars.lastCharge).toBe('charge');
    expect(second.timeline.some((t: any) => t.kind === 'run.continued')).toBe(true);
    // Each period's order.paid gets its own outbox id (contract section 10).
    const { rows } = await h.t.service.ctx.db.query("SELECT id FROM outbox WHERE order_id = $1 AND event = 'order.paid'", [id]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
  });
});

describe('concurrency', () => {
  it('200 concurrent events to one order: delivered at most once each, no lost update, no pool exhaustion', async () => {
    const v = await h.publish('many-events-flow', {
      nodes: [
        n('start', 'trigger.api'),
        n('loop', 'logic.loop', { maxPasses: 500 }),
        n('wait', 'wait.event', { event: 'tick', timeout: '1d' }),
        n('done', 'end', { outcome: 'completed' }),
        n('full', 'end', { outcome: 'completed' }),
      ],
      edges: [e('start', 'loop'), e('loop', 'wait', 'next'), e('loop', 'full', 'exhausted'), e('wait', 'loop', 'received'), e('wait', 'done', 'timeout')],
    });
    const id = await h.startOrder('many-events-flow', v);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => h.engine.runtime.deliverEvent(id, 'tick', { i })));
    expect(results.every((r) => r.delivered)).toBe(true);
    const s = await h.state(id);
    expect(s.nodes.wait.runs).toBe(201); // 200 answered + the one open now
    expect(s.status).toBe('waiting');
    expect(h.engine.runtime.liveOrders).toBe(0);
  });
});

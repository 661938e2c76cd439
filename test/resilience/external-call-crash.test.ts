// Proves issue 20's crash rule for external steps: a SIGKILL between an http.call's request and its recorded answer repeats the call after restart with the same Idempotency-Key, and the order's effects are recorded once.
import { describe, expect, it } from 'vitest';
import { expectNoLaterCall, publishCallFlow, restartUntilCompleted, startOrder, storedHistory, useCrashRig } from './support/crash-harness.js';
import { until } from '../support/until.js';

const startRig = useCrashRig();

describe('external call crash (child process)', () => {
  it('SIGKILL between the call and its recorded answer: after restart the call is repeated with the same Idempotency-Key, and the order effects are recorded once', async () => {
    // The first request on /charge never gets an answer; every later one is answered at once.
    const { db, receiver, service } = await startRig((rx) =>
      rx.script('/charge', (k) => (k === 1 ? 'hang' : { status: 200, body: { chargeId: 'ch_1' } })),
    );
    await publishCallFlow(service, 'charge-flow', 'Charge', { url: `${receiver.url}/charge`, timeout: '5s' });
    const orderId = await startOrder(service, 'charge-flow');

    // The request is out (the receiver holds it): kill the whole process group before any answer is recorded.
    await until('the first request on /charge', async () => receiver.on('/charge').length === 1);
    await service.kill('group');

    const callsAfterCrash = await db('SELECT status, attempt, idempotency_key FROM order_calls WHERE order_id = $1', [orderId]);
    expect(callsAfterCrash).toEqual([{ status: 'pending', attempt: 1, idempotency_key: receiver.on('/charge')[0].headers['idempotency-key'] }]);
    const [orderAfterCrash] = await db('SELECT status FROM orders WHERE id = $1', [orderId]);
    expect(orderAfterCrash.status).toBe('running');
    const [nodeAfterCrash] = await db("SELECT status FROM order_nodes WHERE order_id = $1 AND node_id = 'call'", [orderId]);
    expect(nodeAfterCrash.status).toBe('running');
    expect(await db("SELECT event FROM outbox WHERE order_id = $1 AND event = 'order.completed'", [orderId])).toEqual([]);
    const [timerAfterCrash] = await db("SELECT fired_at FROM timers WHERE order_id = $1 AND kind = 'call.perform'", [orderId]);
    expect(timerAfterCrash.fired_at).toBeNull();

    // Restart on the same database and move the test clock past the lease (timeout 5 s + 5 s margin): the call is made again.
    const done = await restartUntilCompleted(service, orderId);

    const tries = receiver.on('/charge');
    expect(tries).toHaveLength(2);
    expect(tries[0].headers['idempotency-key']).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(tries[1].headers['idempotency-key']).toBe(tries[0].headers['idempotency-key']);
    expect(tries[1].body).toEqual(tries[0].body);

    expect(done.nodes.call).toMatchObject({ status: 'succeeded', output: { status: 200, body: { chargeId: 'ch_1' }, attempts: 1 } });
    const callEntries = (kind: string) => done.timeline.filter((x: any) => x.kind === kind && x.nodeId === 'call');
    expect(callEntries('node.call')).toHaveLength(1);
    expect(callEntries('node.answer')).toHaveLength(1);
    expect(callEntries('node.succeeded')).toHaveLength(1);

    const calls = await db('SELECT status, attempt, answer FROM order_calls WHERE order_id = $1', [orderId]);
    expect(calls).toEqual([{ status: 'answered', attempt: 1, answer: expect.objectContaining({ status: 200, body: { chargeId: 'ch_1' } }) }]);
    const timers = await db("SELECT fired_at FROM timers WHERE order_id = $1 AND kind = 'call.perform'", [orderId]);
    expect(timers).toHaveLength(1);
    expect(timers[0].fired_at).not.toBeNull();
    // The whole stored history of the order: each step once, the answer once, one order.completed event.
    expect(await storedHistory(db, orderId)).toEqual([
      'order.started',
      'node.succeeded start',
      'node.call call',
      'node.answer call',
      'node.succeeded call',
      'order.completed',
    ]);
    const events = await db('SELECT event FROM outbox WHERE order_id = $1', [orderId]);
    expect(events).toEqual([{ event: 'order.completed' }]);

    // Nothing else arrives later: the call's timer is retired, so the next sweep repeats nothing.
    await expectNoLaterCall(service, receiver, '/charge', 2);
    await service.terminate();
  });
});

// Proves issue 33's crash rule for a held step's retry: a SIGKILL between the retry's request and its recorded answer repeats
// the request after restart with the same Idempotency-Key (the key of the step's run, which the hold kept), and one result is recorded.
import { describe, expect, it } from 'vitest';
import { expectNoLaterCall, publishCallFlow, restartUntilCompleted, startOrder, storedHistory, useCrashRig } from './support/crash-harness.js';
import { until } from '../support/until.js';

const startRig = useCrashRig();

describe('held step retry crash (child process)', () => {
  it('SIGKILL between the retry\'s request and its recorded answer: after restart it is repeated with the same key and recorded once', async () => {
    // The gateway is down (503: the step holds), then the retry's request gets no answer (the crash), then it is back.
    const { db, receiver, service } = await startRig((rx) =>
      rx.script('/charge', (k) => (k === 1 ? { status: 503 } : k === 2 ? 'hang' : { status: 200, body: { chargeId: 'ch_1' } })),
    );
    await publishCallFlow(service, 'held-charge', 'Held charge', { url: `${receiver.url}/charge`, timeout: '5s', retry: { attempts: 0, backoff: '1s' }, onFailure: 'hold' });
    const orderId = await startOrder(service, 'held-charge');
    await until('the hold', async () => ((await service.call('GET', `/api/v1/orders/${orderId}`)).body.holds ?? []).length === 1);

    const retried = await service.call('POST', `/api/v1/orders/${orderId}/holds/call`, { action: 'retry' });
    expect(retried.status, retried.text).toBe(200);
    // The retry's request is out (the receiver holds it): kill the whole process group before any answer is recorded.
    await until('the retry\'s request', async () => receiver.on('/charge').length === 2);
    await service.kill('group');

    const key = receiver.on('/charge')[0].headers['idempotency-key'];
    expect(receiver.on('/charge')[1].headers['idempotency-key']).toBe(key);
    expect(await db('SELECT attempt, status, idempotency_key FROM order_calls WHERE order_id = $1 ORDER BY attempt', [orderId])).toEqual([
      { attempt: 1, status: 'answered', idempotency_key: key },
      { attempt: 2, status: 'pending', idempotency_key: key },
    ]);
    expect(await db('SELECT number, status FROM order_holds WHERE order_id = $1', [orderId])).toEqual([{ number: 1, status: 'retried' }]);

    // Restart on the same database and move the test clock past the lease (timeout 5 s + 5 s margin): the request is made again.
    const done = await restartUntilCompleted(service, orderId);
    const tries = receiver.on('/charge');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.headers['idempotency-key']))).toEqual(new Set([key]));
    expect(done.nodes.call).toMatchObject({ status: 'succeeded', runs: 1, attempt: 2, output: { status: 200, body: { chargeId: 'ch_1' }, attempts: 2 } });
    expect(await db('SELECT attempt, status FROM order_calls WHERE order_id = $1 ORDER BY attempt', [orderId])).toEqual([
      { attempt: 1, status: 'answered' },
      { attempt: 2, status: 'answered' },
    ]);
    expect(await storedHistory(db, orderId)).toEqual([
      'order.started',
      'node.succeeded start',
      'node.call call',
      'node.answer call',
      'node.failed call',
      'node.held call',
      'node.hold_retried call',
      'node.call call',
      'node.answer call',
      'node.succeeded call',
      'order.completed',
    ]);
    expect((await db('SELECT event FROM outbox WHERE order_id = $1 ORDER BY created_at', [orderId])).map((r) => r.event)).toEqual(['order.held', 'order.completed']);

    // Nothing else arrives later: the call's timer is retired.
    await expectNoLaterCall(service, receiver, '/charge', 3);
    await service.terminate();
  });
});

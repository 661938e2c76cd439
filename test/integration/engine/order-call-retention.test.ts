// Issue 28: the call attempts (`order_calls`) of ended orders are purged 30 days after the order ended, on the injected
// clock; those of orders still running or waiting (a held order waits) are kept however old.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { e, eventually, n, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';
import { ORDER_CALL_RETENTION_MS } from '../../../src/engine/runtime/order-call-retention.js';

let t: TestService;
let rx: ScriptedReceiver;

beforeAll(async () => {
  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  rx = await startScriptedReceiver();
  rx.script('/erp', () => ({ status: 200, body: { ok: true } }));
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

const status = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body.status as string;
const calls = async (id: string) => (await t.service.ctx.db.query('SELECT count(*)::int AS n FROM order_calls WHERE order_id = $1', [id])).rows[0].n as number;
async function startOn(flowId: string, until: string): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', startBody(flowId));
  expect(res.status).toBe(201);
  const id = res.body.orderId as string;
  await eventually(async () => (await status(id)) === until, 10_000, `order ${until}`);
  return id;
}

describe('order_calls retention (issue 28)', () => {
  it('purges the attempts of an order ended over 30 days ago, never those of a waiting order, nor of one ended recently', async () => {
    await publishFlow(t, 'call-then-end', {
      nodes: [n('start', 'trigger.api'), n('call', 'http.call', { url: `${rx.url}/erp` }), n('done', 'end', { outcome: 'completed' })],
      edges: [e('start', 'call'), e('call', 'done')],
    });
    await publishFlow(t, 'call-then-wait', {
      nodes: [
        n('start', 'trigger.api'),
        n('call', 'http.call', { url: `${rx.url}/erp` }),
        n('pay', 'wait.event', { event: 'payment.received', timeout: '90d' }),
        n('done', 'end', { outcome: 'completed' }),
        n('late', 'end', { outcome: 'cancelled', reason: 'No payment' }),
      ],
      edges: [e('start', 'call'), e('call', 'pay'), e('pay', 'done', 'received'), e('pay', 'late', 'timeout')],
    });
    const ended = await startOn('call-then-end', 'completed');
    const waiting = await startOn('call-then-wait', 'waiting');
    expect(await calls(ended)).toBe(1);
    expect(await calls(waiting)).toBe(1);

    // Inside the retention: nothing goes.
    await t.advance(ORDER_CALL_RETENTION_MS - 60_000);
    expect(await calls(ended)).toBe(1);
    const endedLater = await startOn('call-then-end', 'completed');

    // Past it (the purge runs after each move of the test clock): the old ended order's attempts go, the rest stay.
    await t.advance(2 * 60_000);
    await eventually(async () => (await calls(ended)) === 0, 10_000, 'purge');
    expect(await calls(waiting)).toBe(1);
    expect(await status(waiting)).toBe('waiting');
    expect(await calls(endedLater)).toBe(1);
    // The ended order itself, its timeline and node outputs stay.
    const order = (await t.call('GET', `/api/v1/orders/${ended}`)).body;
    expect(order.status).toBe('completed');
    expect(order.nodes.call).toMatchObject({ status: 'succeeded', output: { status: 200 } });
  });
});

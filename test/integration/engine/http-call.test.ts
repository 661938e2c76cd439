// External steps (issue 20, runtime contract section 5 `http.call`) against a real local HTTP receiver: one request per
// attempt with a stable Idempotency-Key, timeouts retried by the test clock, 4xx to `rejected`, no row lock held while the
// request is out (a cancel completes meanwhile; the late answer is recorded and changes nothing), compensation on rollback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { e, eventually, n, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';

let t: TestService;
let rx: ScriptedReceiver;
let flowNo = 0;

beforeAll(async () => {
  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' } });
  rx = await startScriptedReceiver();
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});
beforeEach(() => {
  rx.received.length = 0;
});

/** Publishes a flow start -> call (http.call with `params`) -> done, plus `more` nodes and edges; returns its id. */
async function callFlow(params: Record<string, unknown>, more: { nodes?: any[]; edges?: any[] } = {}): Promise<string> {
  const id = `http-call-${++flowNo}`;
  await publishFlow(t, id, {
    nodes: [n('start', 'trigger.api'), n('call', 'http.call', params), n('done', 'end', { outcome: 'completed' }), ...(more.nodes ?? [])],
    edges: [e('start', 'call'), e('call', 'done'), ...(more.edges ?? [])],
  });
  return id;
}

const start = async (flowId: string) => {
  const res = await t.call('POST', '/api/v1/orders', startBody(flowId));
  expect(res.status).toBe(201);
  return res.body.orderId as string;
};
const live = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;
const settled = (id: string, status: string) => eventually(async () => ((await live(id)).status === status ? live(id) : null), 10_000, `order ${status}`);
const timelineKinds = (state: any) => state.timeline.map((x: any) => x.kind);

describe('http.call', () => {
  it('makes one request with the rendered body, an oo- Idempotency-Key and the integration signature; 2xx takes ok with { status, body, attempts }', async () => {
    const made = await t.call('POST', '/api/v1/integrations', { name: 'erp' });
    expect(made.status).toBe(201);
    rx.script('/erp', () => ({ status: 201, body: { id: 'erp_1', accepted: true } }));
    const flow = await callFlow({
      url: `${rx.url}/erp`,
      headers: { 'X-Tenant': 'acme' },
      body: { orderId: '{{order.id}}', total: '{{order.total}}', note: 'Order {{order.id}} in {{order.currency}}', fixed: [1, true] },
      secret: made.body.integration.id,
    });
    const id = await start(flow);
    const state = await settled(id, 'completed');
    expect(rx.on('/erp')).toHaveLength(1);
    const [req] = rx.on('/erp');
    expect(req.method).toBe('POST');
    expect(req.headers['idempotency-key']).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(req.headers['x-tenant']).toBe('acme');
    expect(req.headers['content-type']).toBe('application/json');
    expect(verifySignature(made.body.secret, String(req.headers['x-service-signature']), req.raw, t.service.ctx.clock.now())).toBe(true);
    expect(req.body).toEqual({ orderId: id, total: 2500, note: `Order ${id} in USD`, fixed: [1, true] });
    expect(state.nodes.call).toMatchObject({ status: 'succeeded', attempt: 1, branches: ['ok'], output: { status: 201, body: { id: 'erp_1', accepted: true }, attempts: 1 } });
    expect(timelineKinds(state)).toEqual(expect.arrayContaining(['node.call', 'node.answer', 'node.succeeded']));
    // Another order gets another key.
    const other = await start(flow);
    await settled(other, 'completed');
    expect(rx.on('/erp')[1].headers['idempotency-key']).not.toBe(req.headers['idempotency-key']);
  });

  it('a hanging receiver is cut at the timeout and the call is retried by the test clock with the same key', async () => {
    rx.script('/slow', (k) => (k === 1 ? 'hang' : { status: 200, body: { ok: true } }));
    const flow = await callFlow({ url: `${rx.url}/slow`, timeout: '1s', retry: { attempts: 2, backoff: '10s' } });
    const id = await start(flow);
    const running = await eventually(async () => {
      const s = await live(id);
      return timelineKinds(s).includes('node.retry') ? s : null;
    }, 10_000, 'the first attempt to time out');
    expect(running.status).toBe('running');
    expect(running.nodes.call).toMatchObject({ status: 'running', attempt: 1 });
    expect(running.nodes.call.error).toMatch(/No answer within 1000 ms/);
    expect(rx.on('/slow')).toHaveLength(1);
    await t.advance(10_000);
    const done = await settled(id, 'completed');
    const tries = rx.on('/slow');
    expect(tries).toHaveLength(2);
    expect(tries[1].headers['idempotency-key']).toBe(tries[0].headers['idempotency-key']);
    expect(done.nodes.call).toMatchObject({ status: 'succeeded', attempt: 2, output: { status: 200, body: { ok: true }, attempts: 2 } });
  });

  it('a 4xx takes rejected without a retry; unwired, it fails the run', async () => {
    rx.script('/refuse', () => ({ status: 422, body: { error: 'bad sku' } }));
    const wired = await callFlow({ url: `${rx.url}/refuse` }, { nodes: [n('no', 'end', { outcome: 'declined', reason: 'ERP refused' })], edges: [e('call', 'no', 'rejected')] });
    const declined = await settled(await start(wired), 'declined');
    expect(declined.nodes.call).toMatchObject({ status: 'succeeded', branches: ['rejected'], output: { status: 422, body: { error: 'bad sku' }, attempts: 1 } });
    expect(rx.on('/refuse')).toHaveLength(1);

    const unwired = await callFlow({ url: `${rx.url}/refuse` });
    const failed = await settled(await start(unwired), 'failed');
    expect(failed.reason).toBe('The receiver refused the call: HTTP 422');
    expect(failed.nodes.call).toMatchObject({ status: 'failed', output: { status: 422 } });
    expect(rx.on('/refuse')).toHaveLength(2);
  });

  it('408, 429 and 5xx are retried; after the last attempt the failed branch is taken with the last answer as output', async () => {
    rx.script('/busy', (k) => ({ status: k === 1 ? 429 : k === 2 ? 408 : 503, body: { try: k } }));
    const flow = await callFlow({ url: `${rx.url}/busy`, retry: { attempts: 2, backoff: '5s' } }, {
      nodes: [n('gave_up', 'end', { outcome: 'failed', reason: 'ERP unavailable' })],
      edges: [e('call', 'gave_up', 'failed')],
    });
    const id = await start(flow);
    await eventually(async () => rx.on('/busy').length === 1 && timelineKinds(await live(id)).includes('node.retry'), 10_000, 'attempt 1');
    await t.advance(5_000);
    await eventually(async () => rx.on('/busy').length === 2 && timelineKinds(await live(id)).filter((k: string) => k === 'node.retry').length === 2, 10_000, 'attempt 2');
    await t.advance(10_000);
    const failed = await settled(id, 'failed');
    expect(failed.reason).toBe('ERP unavailable');
    expect(failed.nodes.call).toMatchObject({ status: 'failed', output: { status: 503, body: { try: 3 }, attempts: 3 } });
    expect(new Set(rx.on('/busy').map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('holds no row lock while the request is out: a cancel completes meanwhile, and the late answer is recorded and changes nothing', async () => {
    rx.script('/hold', () => 'hang');
    const flow = await callFlow({ url: `${rx.url}/hold`, timeout: '60s' });
    const id = await start(flow);
    await eventually(async () => rx.on('/hold').length === 1, 10_000, 'the request');
    expect((await live(id)).nodes.call).toMatchObject({ status: 'running', attempt: 1 });
    const cancelled = await t.call('POST', `/api/v1/orders/${id}/cancel`, { reason: 'Buyer changed their mind' });
    expect(cancelled.status).toBe(200);
    const after = await live(id);
    expect(after.status).toBe('cancelled');
    expect(after.nodes.call.status).toBe('skipped');
    rx.release('/hold', 200, { id: 'late_1' });
    const withLate = await eventually(async () => {
      const s = await live(id);
      return timelineKinds(s).includes('node.late_answer') ? s : null;
    }, 10_000, 'the late answer in the timeline');
    expect(withLate.status).toBe('cancelled');
    expect(withLate.nodes.call.status).toBe('skipped');
    expect(withLate.nodes.call.output).toBeNull();
    const { rows } = await t.service.ctx.db.query('SELECT status, answer FROM order_calls WHERE order_id = $1', [id]);
    expect(rows).toEqual([{ status: 'late', answer: expect.objectContaining({ status: 200, body: { id: 'late_1' } }) }]);
  });

  it('rollback calls the compensating request once, with its own key and the step output in its body', async () => {
    rx.script('/pay', () => ({ status: 200, body: { chargeId: 'ch_9' } }));
    rx.script('/ship', () => ({ status: 500, body: { down: true } }));
    rx.script('/refund', () => ({ status: 200, body: { refunded: true } }));
    const id = `http-call-${++flowNo}`;
    await publishFlow(t, id, {
      nodes: [
        n('start', 'trigger.api'),
        n('pay', 'http.call', { url: `${rx.url}/pay`, compensate: { url: `${rx.url}/refund`, body: { charge: '{{nodes.pay.body.chargeId}}' } } }),
        n('ship', 'http.call', { url: `${rx.url}/ship`, retry: { attempts: 0, backoff: '1s' } }),
        n('done', 'end', { outcome: 'completed' }),
      ],
      edges: [e('start', 'pay'), e('pay', 'ship'), e('ship', 'done')],
    });
    const orderId = await start(id);
    const rolled = await settled(orderId, 'rolled_back');
    expect(rolled.nodes.pay.status).toBe('rolled_back');
    await eventually(async () => timelineKinds(await live(orderId)).includes('node.undo_call'), 10_000, 'the undo call');
    const [refund] = rx.on('/refund');
    expect(rx.on('/refund')).toHaveLength(1);
    expect(refund.body).toEqual({ charge: 'ch_9' });
    expect(refund.headers['idempotency-key']).toMatch(/^oo-[0-9a-f]{32}$/);
    expect(refund.headers['idempotency-key']).not.toBe(rx.on('/pay')[0].headers['idempotency-key']);
  });

  it('publishing refuses a non-https URL, credentials in the URL, reserved headers and a timeout over 2 minutes', async () => {
    const bad = [
      { url: 'http://example.com/x' },
      { url: 'https://user:pw@example.com/x' },
      { url: 'https://example.com/x', headers: { 'Idempotency-Key': 'mine' } },
      { url: 'https://example.com/x', timeout: '3m' },
      { url: 'https://example.com/x', method: 'TRACE' },
    ];
    for (const params of bad) {
      const res = await t.call('PUT', `/api/v1/flows/http-bad-${++flowNo}`, {
        name: 'bad',
        graph: { nodes: [n('start', 'trigger.api'), n('call', 'http.call', params), n('done', 'end', { outcome: 'completed' })], edges: [e('start', 'call'), e('call', 'done')] },
      });
      expect(res.status, JSON.stringify(params)).toBe(200);
      expect(res.body.problems.length, JSON.stringify(params)).toBeGreaterThan(0);
      expect(res.body.problems[0].nodeId).toBe('call');
    }
  });
});

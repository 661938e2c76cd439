// Security review 2, L-1: an http.call header with CR/LF is refused when the flow is saved and published; and a request
// that cannot be sent anyway (a graph stored before that check) is a terminal failure of the step, never an order stuck
// `running` with its call re-fired every sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { outboundCallTransport } from '../../../src/webhooks/outbound-call-transport.js';
import type { CallTransport } from '../../../src/engine/runtime/call-transport.js';
import { e, eventually, n, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';

let t: TestService;
let rx: ScriptedReceiver;
let sends = 0;

/**
 * The service's own transport, with one header value made invalid on the way out: what a graph saved before the
 * header check would send (validation now refuses such a graph, so it cannot be published to reach this path).
 */
const real = outboundCallTransport({ allowLoopback: true, secretOf: async () => null });
const injecting: CallTransport = {
  send: (request, key, now) => {
    sends++;
    return real.send({ ...request, headers: { ...request.headers, 'X-Tenant': 'acme\r\nInjected: 1' } }, key, now);
  },
};

beforeAll(async () => {
  t = await startOrdersService({ env: { OUTBOUND_ALLOW_LOOPBACK: '1' }, start: { engine: { callTransport: injecting } } });
  rx = await startScriptedReceiver();
});
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

const graph = (headers: Record<string, string>, more: { nodes?: any[]; edges?: any[] } = {}) => ({
  nodes: [n('start', 'trigger.api'), n('call', 'http.call', { url: `${rx.url}/erp`, headers, retry: { attempts: 3, backoff: '5s' } }), n('done', 'end', { outcome: 'completed' }), ...(more.nodes ?? [])],
  edges: [e('start', 'call'), e('call', 'done'), ...(more.edges ?? [])],
});
const live = async (id: string) => (await t.call('GET', `/api/v1/orders/${id}`)).body;

describe('http.call headers with control characters (review 2, L-1)', () => {
  it('a header value with CR/LF (or another control character) is a problem on the node when saved, and publishing is a 400 with issues', async () => {
    for (const value of ['a\r\nInjected: 1', 'a\nb', 'esc\u001b[0m', 'bell\u0007', 'del\u007f']) {
      const saved = await t.call('PUT', '/api/v1/flows/crlf-header', { name: 'crlf', graph: graph({ 'X-A': value }) });
      expect(saved.status, saved.text).toBe(200);
      const problem = saved.body.problems.find((p: any) => p.nodeId === 'call');
      expect(problem?.message, JSON.stringify(value)).toMatch(/control characters/);
      const published = await t.call('POST', '/api/v1/flows/crlf-header/publish');
      expect(published.status).toBe(400);
      expect(published.body.issues.length).toBeGreaterThan(0);
    }
    // A tab and Latin-1 text stay allowed.
    const fine = await t.call('PUT', '/api/v1/flows/fine-header', { name: 'fine', graph: graph({ 'X-A': 'a\tcafé' }) });
    expect(fine.body.problems).toEqual([]);
  });

  it('a request that cannot be sent fails the step terminally: the order ends failed, once, and is not left running', async () => {
    await publishFlow(t, 'unsendable', graph({ 'X-Tenant': 'acme' }));
    const res = await t.call('POST', '/api/v1/orders', startBody('unsendable'));
    expect(res.status).toBe(201);
    const id = res.body.orderId as string;
    const ended = await eventually(async () => ((await live(id)).status === 'failed' ? live(id) : null), 10_000, 'order failed');
    expect(ended.reason).toMatch(/cannot be sent/);
    expect(ended.nodes.call).toMatchObject({ status: 'failed' });
    // Terminal: no retry was scheduled, and moving the clock past every backoff sends nothing more.
    const sent = sends;
    await t.advance(60_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(sends).toBe(sent);
    expect(rx.on('/erp')).toHaveLength(0);
    const { rows } = await t.service.ctx.db.query("SELECT count(*)::int AS n FROM timers WHERE order_id = $1 AND fired_at IS NULL AND cancelled_at IS NULL", [id]);
    expect(rows[0].n).toBe(0);
  });

  it('with the failed branch wired, the unsendable call takes it like any terminal failure', async () => {
    await publishFlow(t, 'unsendable-wired', graph({ 'X-Tenant': 'acme' }, { nodes: [n('gave_up', 'end', { outcome: 'failed', reason: 'ERP unreachable' })], edges: [e('call', 'gave_up', 'failed')] }));
    const res = await t.call('POST', '/api/v1/orders', startBody('unsendable-wired'));
    const id = res.body.orderId as string;
    const ended = await eventually(async () => ((await live(id)).status === 'failed' ? live(id) : null), 10_000, 'order failed');
    expect(ended.reason).toBe('ERP unreachable');
  });
});

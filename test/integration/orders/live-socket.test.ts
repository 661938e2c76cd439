// The live connection /agents/order-agent/:id (contract section 8): state on connect and after each change,
// actions re-checked per message against the session and role (spec "Sessions", "Browser protections").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { makePerson, postForm, sessionCookie } from '../identity/identity-client.js';
import { graphs, publishFlow, startBody, startOrdersService } from './orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  await publishFlow(t, 'approval-flow', graphs.approval);
});
afterAll(async () => {
  await t?.close();
});

/** A connected client that queues every message it receives. */
interface LiveClient {
  ws: WebSocket;
  next(predicate?: (m: any) => boolean, ms?: number): Promise<any>;
  send(msg: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(orderId: string, headers: Record<string, string>): Promise<LiveClient> {
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/agents/order-agent/${orderId}`, { headers });
  const inbox: any[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    inbox.push(JSON.parse(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const next = async (predicate: (m: any) => boolean = () => true, ms = 5_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const i = inbox.findIndex(predicate);
      if (i >= 0) return inbox.splice(0, i + 1).pop();
      if (Date.now() > until) throw new Error(`no matching message; inbox: ${JSON.stringify(inbox).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, next, send: (m) => ws.send(JSON.stringify(m)), closed }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
}

const bearer = { authorization: `Bearer ${WORKSPACE_PASSWORD}` };
const own = () => ({ origin: new URL(t.url).origin });
const start = async (flowId: string, title = 'Live') => (await t.call('POST', '/api/v1/orders', startBody(flowId, { title }))).body.orderId as string;

describe('live order connection', () => {
  it('sends the live state on connect (same JSON as GET /orders/:id) and again after a REST event', async () => {
    const id = await start('wait-flow');
    const c = await connect(id, bearer);
    const first = await c.next();
    expect(first.type).toBe('state');
    const rest = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect(first.state).toEqual(rest);
    expect(first.state.status).toBe('waiting');
    await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'payment.received', payload: { amount: 25 } });
    const changed = await c.next((m) => m.type === 'state' && m.state.status === 'completed');
    expect(changed.state.vars.payment_received.amount).toBe(25);
    c.ws.close();
  });

  it('an approve action over the socket decides the approval as the signed-in person', async () => {
    const approver = await makePerson(t, 'approver');
    const id = await start('approval-flow');
    const c = await connect(id, { cookie: approver.cookie, ...own() });
    expect((await c.next()).state.waits[0]).toMatchObject({ nodeId: 'review', kind: 'approval' });
    c.send({ type: 'action', action: 'approve', nodeId: 'review', note: 'looks right', requestId: 'r1' });
    expect(await c.next((m) => m.type === 'result')).toEqual({ type: 'result', requestId: 'r1', action: 'approve', result: { ok: true } });
    const done = await c.next((m) => m.type === 'state' && m.state.status === 'completed');
    expect(done.state.nodes.review.output).toEqual({ decision: 'approved', by: approver.email, note: 'looks right', outcome: 'approved' });
    // A second decision: the 409 comes back as an error message; the connection stays open.
    c.send({ type: 'action', action: 'reject', nodeId: 'review', requestId: 'r2' });
    expect(await c.next((m) => m.type === 'error')).toEqual({ type: 'error', requestId: 'r2', status: 409, error: 'That node is not waiting for an approval' });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('the workspace password signed in to the dashboard decides as `operator`; cancel and deliver_event work for operators', async () => {
    const cookie = await sessionCookie(t, '', WORKSPACE_PASSWORD);
    const a = await start('approval-flow');
    const ca = await connect(a, { cookie, ...own() });
    await ca.next();
    ca.send({ type: 'action', action: 'reject', nodeId: 'review' });
    await ca.next((m) => m.type === 'result');
    expect((await t.call('GET', `/api/v1/orders/${a}`)).body.nodes.review.output.by).toBe('operator');
    const b = await start('wait-flow');
    const cb = await connect(b, { cookie, ...own() });
    await cb.next();
    cb.send({ type: 'action', action: 'deliver_event', event: 'other.event', requestId: 'd1' });
    expect(await cb.next((m) => m.type === 'result')).toMatchObject({ requestId: 'd1', result: { delivered: false } });
    cb.send({ type: 'action', action: 'cancel', requestId: 'c1' });
    await cb.next((m) => m.type === 'result' && m.requestId === 'c1');
    const cancelled = await cb.next((m) => m.type === 'state' && m.state.status === 'cancelled');
    expect(cancelled.state.reason).toBe('Cancelled from the order page by operator');
    ca.ws.close();
    cb.ws.close();
  });

  it('actions are re-checked per message: a viewer watches but cannot approve (403), the connection stays', async () => {
    const viewer = await makePerson(t, 'viewer');
    const id = await start('approval-flow');
    const c = await connect(id, { cookie: viewer.cookie, ...own() });
    await c.next();
    c.send({ type: 'action', action: 'approve', nodeId: 'review', requestId: 'v1' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ requestId: 'v1', status: 403 });
    c.send({ type: 'action', action: 'deliver_event', event: 'x', requestId: 'v2' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ requestId: 'v2', status: 403 });
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it('after sign-out the next action is refused with 401 and the connection ends', async () => {
    const approver = await makePerson(t, 'approver');
    const id = await start('approval-flow');
    const c = await connect(id, { cookie: approver.cookie, ...own() });
    await c.next();
    expect((await postForm(t, '/logout', {}, { cookie: approver.cookie })).status).toBe(303);
    c.send({ type: 'action', action: 'approve', nodeId: 'review', requestId: 's1' });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ requestId: 's1', status: 401 });
    expect((await c.closed).code).toBe(4401);
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
  });

  it('invalid messages get a 400 error message with issues', async () => {
    const id = await start('approval-flow');
    const c = await connect(id, bearer);
    await c.next();
    c.ws.send('not json');
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ status: 400, error: 'Messages are JSON' });
    c.send({ type: 'action', action: 'approve', requestId: 'bad' });
    const err = await c.next((m) => m.type === 'error');
    expect(err).toMatchObject({ requestId: 'bad', status: 400 });
    expect(err.issues.length).toBeGreaterThan(0);
    c.send({ type: 'action', action: 'deliver_event', event: 'x', payload: { blob: 'x'.repeat(33 * 1024) } });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ status: 400 });
    c.ws.close();
  });

  it('refuses the upgrade: no credential 401, cross-site Origin with a cookie 403, viewer fine, unknown order 404', async () => {
    const id = await start('wait-flow');
    await expect(connect(id, {})).rejects.toMatchObject({ status: 401 });
    const viewer = await makePerson(t, 'viewer');
    await expect(connect(id, { cookie: viewer.cookie, origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403, body: JSON.stringify({ error: 'Cross-site request refused' }) });
    await expect(connect('ord_nope', bearer)).rejects.toMatchObject({ status: 404 });
    await expect(connect(id, { authorization: 'Bearer wrong-password' })).rejects.toMatchObject({ status: 401 });
    const ok = await connect(id, { cookie: viewer.cookie, ...own() });
    expect((await ok.next()).state.orderId).toBe(id);
    ok.ws.close();
  });
});

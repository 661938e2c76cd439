// Hardening of the HTTP edge (security review C1, H1, H2, M2, L8, L9): upgrades, cookies, client address,
// error-log noise and live-connection caps, through the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { openConnections, rawExchange, rawRequest, UPGRADE_HEADERS } from '../../support/raw-http.js';
import { graphs, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';
import { makeToken } from '../identity/identity-client.js';
import { LIVE_LIMITS } from '../../../src/web/order-live-socket.js';

const logs: Record<string, unknown>[] = [];
let t: TestService;
let port: number;
let orderId: string;

/** Records at error level or above (pino: error 50, fatal 60). */
const errorRecords = () => logs.filter((r) => typeof r.level === 'number' && r.level >= 50);

beforeAll(async () => {
  t = await startOrdersService({ logRecords: logs });
  port = Number(new URL(t.url).port);
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  orderId = (await t.call('POST', '/api/v1/orders', startBody('wait-flow', { title: 'Edge' }))).body.orderId;
});
afterAll(async () => {
  await t?.close();
});

const upgrade = (path: string, headers: Record<string, string> = {}) =>
  rawRequest(`GET ${path} HTTP/1.1`, { Host: `127.0.0.1:${port}`, ...UPGRADE_HEADERS, ...headers });

/** Waits until the server's open connection count drops to `n` (sockets close asynchronously). */
async function connectionsSettleAt(n: number): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const open = await openConnections(t.service.server);
    if (open <= n) return open;
    await new Promise((r) => setTimeout(r, 20));
  }
  return openConnections(t.service.server);
}

describe('websocket upgrades (review C1, H1)', () => {
  it('an upgrade with a malformed path is refused 400 and the service keeps serving', async () => {
    const res = await rawExchange(port, upgrade('/agents/order-agent/%E0%A4%A'));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 'Malformed path' });
    expect(res.closed).toBe(true);
    expect((await t.call('GET', '/health')).status).toBe(200);
  });

  it('an upgrade on a path no surface owns is answered 404 and its socket is closed: no descriptor is kept', async () => {
    const before = await openConnections(t.service.server);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => rawExchange(port, upgrade(`/not-a-socket-path-${i}`))));
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.closed).toBe(true);
    }
    expect(await connectionsSettleAt(before)).toBeLessThanOrEqual(before);
  });

  it('an upgrade whose client resets the connection while it is being authenticated does not stop the service', async () => {
    // Half are refused (401, written to a reset socket), half switch protocols (101 written to a reset socket).
    const refused = upgrade(`/agents/order-agent/${orderId}`);
    const accepted = upgrade(`/agents/order-agent/${orderId}`, { Authorization: `Bearer ${WORKSPACE_PASSWORD}` });
    await Promise.all(Array.from({ length: 40 }, (_, i) => rawExchange(port, i % 2 ? refused : accepted, { resetAfterMs: 2 + (i % 10) * 2 })));
    expect((await t.call('GET', '/health')).status).toBe(200);
    expect(errorRecords()).toEqual([]);
  });

  it('an upgrade for an order id with a NUL is answered 404, not a database error', async () => {
    const res = await rawExchange(port, upgrade('/agents/order-agent/ord%00x', { Authorization: `Bearer ${WORKSPACE_PASSWORD}` }));
    expect(res.status).toBe(404);
  });

  it('a valid upgrade still switches protocols after the resets above: a reset socket never stays counted against the cap', async () => {
    // The 20 sockets of the test above that were reset while being authenticated must not hold the caller's cap of 20.
    // Their closes reach the server a little after the test ends, so a 429 is waited out, but only for a while.
    const valid = upgrade(`/agents/order-agent/${orderId}`, { Authorization: `Bearer ${WORKSPACE_PASSWORD}` });
    let res = await rawExchange(port, valid, { stopAtSwitch: true });
    for (let i = 0; i < 100 && res.status === 429; i++) {
      await new Promise((r) => setTimeout(r, 50));
      res = await rawExchange(port, valid, { stopAtSwitch: true });
    }
    expect(res.status).toBe(101);
  });
});

describe('cookies (review M2)', () => {
  const mangled = { cookie: 'svc_session=%E0' };

  it('a session cookie that is not valid percent-encoding is a wrong credential: 401 on REST, never 500', async () => {
    expect((await t.call('GET', '/api/v1/flows', undefined, { token: null, headers: mangled })).status).toBe(401);
    expect((await t.call('POST', '/api/v1/orders', startBody('wait-flow'), { token: null, headers: mangled })).status).toBe(401);
    expect((await t.call('POST', '/logout', undefined, { token: null, headers: { ...mangled, origin: new URL(t.url).origin } })).status).toBeLessThan(500);
  });

  it('a page with a mangled session cookie sends the browser to sign in', async () => {
    const res = await fetch(`${t.url}/account`, { headers: { ...mangled, accept: 'text/html' }, redirect: 'manual' });
    expect([302, 303]).toContain(res.status);
    expect(res.headers.get('location')).toMatch(/^\/login/);
  });

  it('a mangled cookie logs no error', () => {
    expect(errorRecords()).toEqual([]);
  });
});

describe('error log (review L8)', () => {
  it('a deliberate 503 (storefront adapter not enabled) is answered without an error-level log line', async () => {
    const res = await t.call('POST', '/api/v1/channels/platform/orders', { id: 1 }, { token: null });
    expect(res.status).toBe(503);
    expect(errorRecords()).toEqual([]);
  });
});

describe('live connection caps (review L9)', () => {
  const open = (id: string, secret: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/agents/order-agent/${id}`, { headers: { authorization: `Bearer ${secret}` } });
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
  const refusal = (p: Promise<WebSocket>) => p.then(() => null, (err: { status?: number }) => err.status ?? -1);
  const closeAll = async (sockets: WebSocket[]) => {
    await Promise.all(sockets.map((ws) => new Promise<void>((r) => (ws.once('close', () => r()), ws.close()))));
  };

  it(`one credential holds at most ${LIVE_LIMITS.perCaller} live connections; the next gets 429 until one closes`, async () => {
    const token = await makeToken(t, 'viewer', 'never', 'live-cap-caller');
    const sockets = await Promise.all(Array.from({ length: LIVE_LIMITS.perCaller }, () => open(orderId, token.secret)));
    expect(await refusal(open(orderId, token.secret))).toBe(429);
    await closeAll(sockets.splice(0, 1));
    sockets.push(await open(orderId, token.secret));
    await closeAll(sockets);
  });

  it(`one order is watched by at most ${LIVE_LIMITS.perOrder} live connections, and every watcher gets each change`, async () => {
    const id = (await t.call('POST', '/api/v1/orders', startBody('wait-flow', { title: 'Crowd' }))).body.orderId as string;
    const callers = Math.ceil(LIVE_LIMITS.perOrder / LIVE_LIMITS.perCaller);
    const tokens = await Promise.all(Array.from({ length: callers + 1 }, (_, i) => makeToken(t, 'viewer', 'never', `live-cap-order-${i}`)));
    const sockets: WebSocket[] = [];
    for (let i = 0; i < LIVE_LIMITS.perOrder; i++) sockets.push(await open(id, tokens[Math.floor(i / LIVE_LIMITS.perCaller)].secret));
    expect(await refusal(open(id, tokens[callers].secret))).toBe(429);
    // Every one of them sees the order complete after one event.
    const completed = sockets.map(
      (ws) => new Promise<void>((resolve) => ws.on('message', (d) => JSON.parse(d.toString()).state?.status === 'completed' && resolve())),
    );
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'payment.received', payload: {} })).status).toBe(200);
    await Promise.all(completed);
    await closeAll(sockets);
  });
});

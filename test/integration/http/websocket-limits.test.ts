// Websocket and connection limits (contract section 8, security review 2 H-2 and L-3): 20 open websockets per person
// across sessions and both surfaces, a bounded message queue dropped on close, the idle close, per-address caps.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, type ClientOptions } from 'ws';
import { startTestService, type TestService } from '../../support/test-service.js';
import { openConnections } from '../../support/raw-http.js';
import { makePerson, makeToken, sessionCookie, type TestPerson } from '../identity/identity-client.js';
import { graphs, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';
import { CLOSE_IDLE, WEBSOCKETS_PER_HOLDER } from '../../../src/transport/websocket-registry.js';
import { MAX_QUEUED_TURNS } from '../../../src/web/assistant/assistant-socket.js';

/** A short idle time, so the idle close is seen in seconds (the service's own is 5 minutes). */
const IDLE_MS = 2_000;

type Opened = { ws: WebSocket; closed: Promise<{ code: number; reason: string }> };

/** Opens a websocket; resolves with it, or with the refusal's HTTP status. */
function open(url: string, headers: Record<string, string>, options: ClientOptions = {}): Promise<Opened | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers, ...options });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? -1);
    });
    ws.on('error', () => resolve(-1));
  });
}

/** A socket's close, or a failure after `ms` (a close that never comes fails the test instead of hanging it). */
const closedWithin = (s: Opened, ms = 10_000) =>
  Promise.race([s.closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not closed within ${ms} ms`)), ms))]);

const opened = (results: (Opened | number)[]) => results.filter((r): r is Opened => typeof r !== 'number');
async function closeAll(sockets: Opened[]): Promise<void> {
  for (const s of sockets) s.ws.close();
  await Promise.all(sockets.map((s) => s.closed));
}

describe('websockets per person and per connection (review 2 H-2)', () => {
  let t: TestService;
  let person: TestPerson;
  let orderId: string;
  const ws = () => t.url.replace('http', 'ws');
  const own = () => ({ origin: new URL(t.url).origin });
  const assistant = (cookie: string, name = 'limits', options?: ClientOptions) => open(`${ws()}/agents/assistant-agent/${name}`, { cookie, ...own() }, options);
  const live = (cookie: string, options?: ClientOptions) => open(`${ws()}/agents/order-agent/${orderId}`, { cookie, ...own() }, options);

  /** Waits until the server has counted down the person's closed sockets (closes reach it a little after the client's). */
  const settledAt = async (n: number) => {
    for (let i = 0; i < 200 && t.service.ctx.websockets.openFor(`person:${person.id}`) !== n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.service.ctx.websockets.openFor(`person:${person.id}`)).toBe(n);
  };
  beforeEach(() => settledAt(0));

  beforeAll(async () => {
    t = await startOrdersService({ start: { websockets: { idleMs: IDLE_MS, pingMs: 100 } } });
    person = await makePerson(t, 'viewer', 'ws-limits');
    await publishFlow(t, 'ws-wait', graphs.eventWait);
    orderId = (await t.call('POST', '/api/v1/orders', startBody('ws-wait'))).body.orderId;
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`300 assistant sockets from one person over 3 sign-ins: exactly ${WEBSOCKETS_PER_HOLDER} open, the rest 429 at the upgrade, /health answers`, async () => {
    const cookies = [person.cookie, await sessionCookie(t, person.email, person.password), await sessionCookie(t, person.email, person.password)];
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => assistant(cookies[i % 3])));
    const open = opened(results);
    expect(open).toHaveLength(WEBSOCKETS_PER_HOLDER);
    expect(results.filter((r) => r === 429)).toHaveLength(300 - WEBSOCKETS_PER_HOLDER);
    expect((await t.call('GET', '/health')).status).toBe(200);
    // Another person is not held back by this one.
    const other = await makePerson(t, 'viewer', 'ws-limits-other');
    const theirs = await assistant(other.cookie);
    expect(typeof theirs).not.toBe('number');
    await closeAll([...open, theirs as Opened]);
  });

  it('the same count holds the live view: assistant and live sockets of one person are 20 together', async () => {
    const fresh = await sessionCookie(t, person.email, person.password);
    const mine = opened(await Promise.all(Array.from({ length: 15 }, () => assistant(person.cookie))));
    expect(mine).toHaveLength(15);
    const lives = await Promise.all(Array.from({ length: 8 }, () => live(fresh)));
    expect(opened(lives)).toHaveLength(5);
    expect(lives.filter((r) => r === 429)).toHaveLength(3);
    // Closing one frees one, whichever surface asks next.
    await closeAll(mine.splice(0, 1));
    await settledAt(WEBSOCKETS_PER_HOLDER - 1);
    const next = await live(person.cookie);
    expect(typeof next).not.toBe('number');
    expect(await assistant(fresh)).toBe(429);
    await closeAll([...mine, ...opened(lives), next as Opened]);
  });

  it(`a burst of 3000 questions on one assistant socket: closed with 1008 after ${MAX_QUEUED_TURNS} unanswered, and queued turns never run after the close`, async () => {
    const tasks = async () => (await t.service.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM a2a_tasks WHERE owner = $1", [`person:${person.id}`])).rows[0].n;
    const before = await tasks();
    const s = (await assistant(person.cookie, 'burst')) as Opened;
    expect(typeof s).not.toBe('number');
    const frame = JSON.stringify({ type: 'ask', text: 'what needs attention?' });
    for (let i = 0; i < 3000; i++) s.ws.send(frame);
    const { code } = await closedWithin(s);
    expect(code).toBe(1008);
    // Whatever was running when it closed finishes; nothing queued behind it starts (before the fix: thousands).
    await new Promise((r) => setTimeout(r, 1_000));
    const after = await tasks();
    expect(after - before).toBeLessThanOrEqual(MAX_QUEUED_TURNS);
    expect((await t.call('GET', '/health')).status).toBe(200);
  });

  it('a socket without a message or an answered ping is closed when idle (4408); answered pings or messages keep one open', async () => {
    const silent = [(await assistant(person.cookie, 'idle', { autoPong: false })) as Opened, (await live(person.cookie, { autoPong: false })) as Opened];
    const ponging = (await assistant(person.cookie, 'idle')) as Opened;
    const talking = (await live(person.cookie, { autoPong: false })) as Opened;
    const talk = setInterval(() => talking.ws.send('{}'), 200);
    try {
      for (const s of silent) expect((await closedWithin(s)).code).toBe(CLOSE_IDLE);
      // The others were opened with them and are still open past the idle time.
      await new Promise((r) => setTimeout(r, IDLE_MS / 4));
      expect(ponging.ws.readyState).toBe(WebSocket.OPEN);
      expect(talking.ws.readyState).toBe(WebSocket.OPEN);
    } finally {
      clearInterval(talk);
    }
    await closeAll([ponging, talking]);
  });
});

describe('connections per client address (review 2 L-3)', () => {
  const CAP = 5;

  /** Opens a raw TCP connection that sends nothing; resolves once connected, with whether the server closed it soon after. */
  function idleSocket(port: number): Promise<{ socket: net.Socket; cut: Promise<boolean> }> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      const cut = new Promise<boolean>((r) => {
        socket.once('close', () => r(true));
        setTimeout(() => r(socket.destroyed), 1_500);
      });
      socket.once('connect', () => resolve({ socket, cut }));
      socket.once('close', () => resolve({ socket, cut }));
    });
  }

  it(`without TRUST_PROXY one address holds at most MAX_CONNECTIONS_PER_ADDRESS (${CAP}) idle connections; the service serves again once they go`, async () => {
    const t = await startTestService({ env: { MAX_CONNECTIONS_PER_ADDRESS: String(CAP) } });
    try {
      const port = Number(new URL(t.url).port);
      const held = [];
      for (let i = 0; i < CAP; i++) held.push(await idleSocket(port));
      const extra = await Promise.all(Array.from({ length: 10 }, () => idleSocket(port)));
      const cut = await Promise.all(extra.map((e) => e.cut));
      expect(cut.every(Boolean)).toBe(true);
      expect(await Promise.all(held.map((h) => h.cut))).toEqual(held.map(() => false));
      expect(await openConnections(t.service.server)).toBe(CAP);
      // The same address is capped for /health too; once the idle sockets go, it answers.
      for (const h of held) h.socket.destroy();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = await fetch(`${t.url}/health`).then((r) => r.status, () => 0);
        if (status !== 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY the proxy is not capped per address; websockets are capped per forwarded client address', async () => {
    const t = await startOrdersService({ env: { TRUST_PROXY: '1', MAX_CONNECTIONS_PER_ADDRESS: String(CAP) } });
    try {
      const port = Number(new URL(t.url).port);
      // Every connection comes from the proxy's address: twice the cap stays open.
      const held = await Promise.all(Array.from({ length: CAP * 2 }, () => idleSocket(port)));
      expect(await Promise.all(held.map((h) => h.cut))).toEqual(held.map(() => false));
      for (const h of held) h.socket.destroy();

      await publishFlow(t, 'ws-proxy', graphs.eventWait);
      const orderId = (await t.call('POST', '/api/v1/orders', startBody('ws-proxy'))).body.orderId;
      // Separate credentials (each far below its own cap of 20) from one client address behind the proxy.
      const tokens = await Promise.all(Array.from({ length: CAP + 1 }, (_, i) => makeToken(t, 'viewer', 'never', `ws-proxy-${i}`)));
      const url = `${t.url.replace('http', 'ws')}/agents/order-agent/${orderId}`;
      const from = (address: string, secret: string) => open(url, { authorization: `Bearer ${secret}`, 'x-forwarded-for': address });
      const first = await Promise.all(tokens.slice(0, CAP).map((k) => from('203.0.113.7', k.secret)));
      expect(opened(first)).toHaveLength(CAP);
      expect(await from('203.0.113.7', tokens[CAP].secret)).toBe(429);
      const elsewhere = await from('198.51.100.9', tokens[CAP].secret);
      expect(typeof elsewhere).not.toBe('number');
      await closeAll([...opened(first), elsewhere as Opened]);
    } finally {
      await t.close();
    }
  });
});

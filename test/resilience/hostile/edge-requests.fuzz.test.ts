// Hostile requests at the HTTP edge (issue "Hardening"; security review C1, H1, H2, M2, L9): generated cookies,
// headers (X-Forwarded-For, Origin, Sec-Fetch-Site, Authorization forms), websocket upgrade paths and
// percent-encodings of every path parameter, sent as raw bytes. The service answers every one below 500, logs no
// error, changes no state on a refused request, and still answers /health; slow and numerous clients are cut.
import fc from 'fast-check';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL } from '../support/resilience-size.js';
import { resilienceSeed } from '../support/seed.js';
import { WORKSPACE_PASSWORD } from '../../support/test-service.js';
import { rawExchange, rawRequest, UPGRADE_HEADERS, type RawResponse } from '../../support/raw-http.js';
import { startHostileService, type HostileService } from './hostile-service.js';
import { changedTables, type Fingerprint } from './db-fingerprint.js';
import { HOSTILE_STRINGS } from './schema-arbitrary.js';

const REQUESTS = FULL ? 10_000 : 2_000;
/** Requests between two database fingerprints. */
const BATCH = 25;
const REQUEST_TIMEOUT_MS = 2_000;
const MAX_CONNECTIONS = 60;

const logs: Record<string, unknown>[] = [];
let h: HostileService;
let port: number;
let viewerToken: string;
let viewerCookie: string;
const seed = resilienceSeed('hostile edge requests');

beforeAll(async () => {
  h = await startHostileService({
    env: { TRUST_PROXY: '1', REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), MAX_CONNECTIONS: String(MAX_CONNECTIONS) },
    logRecords: logs,
  });
  port = Number(new URL(h.t.url).port);
  const token = await h.t.call('POST', '/api/v1/api-tokens', { name: 'edge-viewer', role: 'viewer', expiresIn: 'never' });
  viewerToken = token.body.secret;
  // A real dashboard session (the workspace password's), so cookie requests also reach the checks behind sign-in.
  const signIn = await fetch(`${h.t.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(h.t.url).origin },
    body: new URLSearchParams({ email: '', password: WORKSPACE_PASSWORD }).toString(),
    redirect: 'manual',
  });
  viewerCookie = signIn.headers.getSetCookie()[0].split(';')[0];
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** Percent-encodings that are not valid UTF-8 or not valid escapes, and values a path segment should never carry. */
const BAD_ENCODINGS = ['%E0%A4%A', '%', '%%', '%zz', '%C0%AF', '%ED%A0%80', '%FF', '%00', '%2F..%2F', '..', '%0D%0A', 'a'.repeat(3000)];

function encodeSegment(value: string): string {
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) out += '%ED%A0%80';
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A path segment: a real id, a hostile string percent-encoded, or a broken encoding. */
const segmentArb = (real: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...real), weight: 3 },
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s !== '')).map(encodeSegment), weight: 2 },
    { arbitrary: fc.constantFrom(...BAD_ENCODINGS), weight: 3 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeSegment), weight: 1 },
  );

/** Every path template the service serves: REST routes, pages and forms, documents and the live socket. */
function pathTemplates(): { method: string; path: string; upgrade?: boolean }[] {
  // The deep health check answers 503 on purpose here: the hostile service has stopped its scheduler and outbox.
  const rest = h.t.service.ctx.routes.filter((r) => r.path !== '/health/deep').map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
  const pages = ['/login', '/login/two-factor', '/account', '/account/two-factor', '/team', '/audit', '/docs/orders/:orderId/:documentId'].map((p) => ({ method: 'GET', path: p }));
  const forms = [
    '/login', '/login/two-factor', '/logout', '/account/password', '/account/api-tokens', '/account/api-tokens/:id/revoke', '/account/sessions/:id/end',
    '/account/two-factor', '/account/two-factor/start', '/team/people', '/team/people/:id/role', '/team/people/:id/enabled', '/team/two-factor-requirement',
  ].map((p) => ({ method: 'POST', path: p }));
  const upgrades = ['/agents/order-agent/:orderId', '/agents/other-agent/:id', '/a2a', '/mcp', '/:anything'].map((p) => ({ method: 'GET', path: p, upgrade: true }));
  return [...rest, ...pages, ...forms, ...upgrades];
}

/** Cookie headers: none, a real session, or something mangled around it. */
const cookieArb = () =>
  fc.oneof(
    { arbitrary: fc.constant(null), weight: 4 },
    { arbitrary: fc.constant(viewerCookie), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        'svc_session=%E0', 'svc_session=%', 'svc_session=', 'svc_session', '=', ';;;', 'svc_session=a; svc_session=%ZZ', `svc_session=${'x'.repeat(4000)}`,
        'svc_2fa=%E0%A4%A', '__Host-svc_session=%C0', 'svc_session=\u00ff\u00fe', `${viewerCookie}%`, `${viewerCookie}; svc_session=%E0`,
      ),
      weight: 3,
    },
  );

/** Authorization header forms. */
const authArb = () =>
  fc.oneof(
    { arbitrary: fc.constant(null), weight: 3 },
    { arbitrary: fc.constant(`Bearer ${WORKSPACE_PASSWORD}`), weight: 2 },
    { arbitrary: fc.constant(`Bearer ${viewerToken}`), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        'Bearer', 'Bearer ', 'bearer  wrong', 'Basic dXNlcjpwYXNz', 'Token abc', `Bearer ${WORKSPACE_PASSWORD} extra`, 'Bearer svc_live_', 'Bearer svc_live_%E0',
        `Bearer svc_live_${'A'.repeat(6000)}`, 'Bearer \u00ff\u00fe', `Bearer\t${WORKSPACE_PASSWORD}`, 'Bearer ,', 'Digest x=y',
      ),
      weight: 3,
    },
  );

const ipArb = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('unknown', '', ' ', 'not-an-ip', '127.0.0.1:80', '[::1]', '%E0'));
/** X-Forwarded-For: absent, one entry, or a client-written list in front of ours. */
const xffArb = fc.oneof({ arbitrary: fc.constant(null), weight: 2 }, { arbitrary: fc.array(ipArb, { minLength: 1, maxLength: 6 }).map((a) => a.join(', ')), weight: 3 });

const originArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.constantFrom('OWN', 'null', 'https://evil.example', 'http://127.0.0.1.evil.example', 'file://', '%E0', 'http://[::1]', 'OWN/'), weight: 2 },
);
const fetchSiteArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  { arbitrary: fc.constantFrom('same-origin', 'none', 'cross-site', 'same-site', 'SAME-ORIGIN', '%E0', ''), weight: 1 },
);
const queryArb = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  { arbitrary: fc.constantFrom('?q=%E0', '?limit=%zz', '?cursor=%00', '?q=a&q=b', '?status=__proto__', '?%E0=1', '?next=%2F%2Fevil.example', '?q=' + 'x'.repeat(2000)), weight: 1 },
);
const bodyArb = fc.oneof(
  fc.constant(''),
  fc.constant('{}'),
  fc.constant('email=&password=x'),
  fc.constantFrom(...HOSTILE_STRINGS).map((s) => JSON.stringify({ x: s })),
  fc.string({ maxLength: 200 }),
);

interface EdgeRequest {
  method: string;
  path: string;
  upgrade: boolean;
  headers: Record<string, string>;
  body: string;
}

function requestArb(): fc.Arbitrary<EdgeRequest> {
  const templates = pathTemplates();
  const real = [h.ids.waitingOrder, h.ids.approvalOrder, h.ids.flow, h.ids.person, h.ids.subscription, h.ids.integration, 'review', 'go'];
  return fc
    .record({
      template: fc.constantFrom(...templates),
      segments: fc.array(segmentArb(real), { minLength: 4, maxLength: 4 }),
      query: queryArb,
      cookie: cookieArb(),
      auth: authArb(),
      xff: xffArb,
      origin: originArb,
      site: fetchSiteArb,
      contentType: fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=%E0', ''),
      body: bodyArb,
    })
    .map((r) => {
      let i = 0;
      const path = r.template.path.replace(/:[A-Za-z]+/g, () => r.segments[i++ % r.segments.length]) + r.query;
      const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, Connection: 'close' };
      if (r.template.upgrade) Object.assign(headers, UPGRADE_HEADERS);
      if (r.cookie) headers.Cookie = r.cookie;
      if (r.auth) headers.Authorization = r.auth;
      if (r.xff !== null) headers['X-Forwarded-For'] = r.xff;
      if (r.origin) headers.Origin = r.origin.replace('OWN', `http://127.0.0.1:${port}`);
      if (r.site !== null) headers['Sec-Fetch-Site'] = r.site;
      const hasBody = r.template.method !== 'GET' && r.template.method !== 'DELETE';
      if (hasBody) {
        if (r.contentType) headers['Content-Type'] = r.contentType;
        headers['Content-Length'] = String(Buffer.byteLength(r.body));
      }
      return { method: r.template.method, path, upgrade: !!r.template.upgrade, headers, body: hasBody ? r.body : '' };
    });
}

const describeRequest = (r: EdgeRequest) => `${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 600)}`;

/** Send one request; a 101 (a valid live connection) is closed right away. */
const send = (r: EdgeRequest): Promise<RawResponse> =>
  rawExchange(port, rawRequest(`${r.method} ${r.path} HTTP/1.1`, r.headers, r.body), { stopAtSwitch: r.upgrade, waitMs: 8_000 });

/** Tables of security bookkeeping a refused request is meant to write (failed attempts, the audit trail of them). */
const BOOKKEEPING = new Set(['auth_failures', 'audit_events']);

describe(`hostile requests at the edge (seed ${seed}, ${REQUESTS} requests)`, () => {
  it('every request is answered below 500 (or switched to a websocket), and a refused one changes no state', async () => {
    const requests = fc.sample(requestArb(), { seed, numRuns: REQUESTS });
    const statuses = new Map<string, number>();
    let before: Fingerprint = await h.fingerprint();
    for (let start = 0; start < requests.length; start += BATCH) {
      const batch = requests.slice(start, start + BATCH);
      let anySuccess = false;
      for (const r of batch) {
        const res = await send(r);
        const key = res.status === null ? 'no answer' : String(res.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        expect(res.status, `no answer to ${describeRequest(r)}`).not.toBeNull();
        expect(res.status!, `${res.text.slice(0, 300)}\n${describeRequest(r)}`).toBeLessThan(500);
        if (res.status! < 400 && r.method !== 'GET') anySuccess = true;
      }
      // A batch whose state-changing requests were all refused must leave everything but the bookkeeping as it was.
      const after = await h.fingerprint();
      if (!anySuccess) {
        const changed = changedTables(before, after).filter((t) => !BOOKKEEPING.has(t));
        expect(changed, `state changed by refused requests:\n${batch.map(describeRequest).join('\n')}`).toEqual([]);
      }
      before = after;
    }
    console.log(`[resilience] hostile edge statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    expect((await h.t.call('GET', '/health')).status).toBe(200);
  }, 600_000);

  it('after them the service logged no uncaught exception, no error, and no 5xx request', () => {
    const errors = logs.filter((l) => typeof l.level === 'number' && l.level >= 50);
    expect(errors.map((e) => `${e.msg}: ${JSON.stringify(e.err ?? '').slice(0, 300)}`)).toEqual([]);
    const served5xx = logs.filter((l) => l.msg === 'request' && typeof l.status === 'number' && l.status >= 500);
    expect(served5xx).toEqual([]);
  });
});

describe('slow and numerous clients (review L9)', () => {
  /** Opens a socket and resolves when the server closes it (or after `ms`, false). */
  const closedByServerWithin = (socket: net.Socket, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      socket.on('close', () => (clearTimeout(timer), resolve(true)));
      socket.on('error', () => undefined);
    });

  it('a body trickled slower than the request timeout is cut, and the service keeps serving', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write(`POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n`);
    const trickle = setInterval(() => socket.writable && socket.write('a'), 200);
    const closed = await closedByServerWithin(socket, REQUEST_TIMEOUT_MS + 8_000);
    clearInterval(trickle);
    socket.destroy();
    expect(closed).toBe(true);
    expect((await h.t.call('GET', '/health')).status).toBe(200);
  }, 30_000);

  it('headers trickled slower than the header timeout are cut', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.write('GET /health HTTP/1.1\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-A: b\r\n'), 200);
    const closed = await closedByServerWithin(socket, REQUEST_TIMEOUT_MS + 8_000);
    clearInterval(trickle);
    socket.destroy();
    expect(closed).toBe(true);
  }, 30_000);

  it(`connections past MAX_CONNECTIONS (${MAX_CONNECTIONS}) are closed as they arrive; the service serves again once they go`, async () => {
    const ended = new Set<net.Socket>();
    const sockets = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS + 10 }, () => new Promise<net.Socket>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => resolve(s));
        s.on('error', () => undefined);
        s.on('end', () => ended.add(s));
        s.on('close', () => ended.add(s));
        s.resume();
      })),
    );
    // Give the server a moment to close the ones over the cap.
    await new Promise((r) => setTimeout(r, 300));
    const open = sockets.filter((s) => !ended.has(s)).length;
    expect(open).toBeLessThanOrEqual(MAX_CONNECTIONS);
    for (const s of sockets) s.destroy();
    let health = 0;
    for (let i = 0; i < 50 && health !== 200; i++) {
      health = await h.t.call('GET', '/health').then((r) => r.status, () => 0);
      if (health !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health).toBe(200);
  }, 30_000);
});

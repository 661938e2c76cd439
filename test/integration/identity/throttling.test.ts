// Failed-sign-in throttling: every row of the spec table, 15-minute windows moved by the test clock, and parallel bursts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { totpCode } from '../../../src/auth/totp.js';
import {
  CHALLENGE_COOKIE,
  enrolTwoFactor,
  login,
  makePerson,
  postForm,
  serverNow,
  uniqueEmail,
} from './identity-client.js';
import { TOKEN_PREFIX } from '../../../src/auth/api-token-store.js';
import { makeToken } from './identity-client.js';
import { connect, registerClient } from '../oauth/oauth-client.js';

const WINDOW = 15 * 60_000;
let t: TestService;
let ipCounter = 0;
/** A fresh client address per use (TRUST_PROXY=1 takes it from X-Forwarded-For). */
const newIp = () => `198.51.100.${++ipCounter}`;
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

beforeAll(async () => {
  t = await startTestService({ env: { TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await t?.close();
});

async function auditActions(type: string): Promise<string[]> {
  const res = await t.call('GET', `/api/v1/audit-events?type=${type}&limit=500`);
  return res.body.events.map((e: any) => e.action);
}

function expect429(res: { status: number; headers: Headers }) {
  expect(res.status).toBe(429);
  const retry = Number(res.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(15 * 60);
}

/** An approver with two-factor on, past the password step from a fresh address: the challenge cookie for the code step. */
async function atCodeStep() {
  const p = await makePerson(t, 'approver');
  const { secret } = await enrolTwoFactor(t, p);
  const ip = newIp();
  const step1 = await login(t, p.email, p.password, from(ip));
  expect(step1.location).toBe('/login/two-factor');
  return { p, secret, ip, challenge: `${CHALLENGE_COOKIE}=${step1.cookies[CHALLENGE_COOKIE]}` };
}

describe('sign-in throttling (spec "Failed-sign-in throttling")', () => {
  it('email and address together: 5 failures, then 429 even for the correct password; the window moves on', async () => {
    const p = await makePerson(t, 'viewer');
    const ip = newIp();
    for (let i = 0; i < 5; i++) {
      const res = await login(t, p.email, 'wrong-password-123', from(ip));
      expect(res.status).toBe(401);
      expect(res.text).toContain('Email and password did not match');
    }
    const blocked = await login(t, p.email, p.password, from(ip));
    expect429(blocked);
    expect(blocked.cookies.svc_session).toBeUndefined();
    // Another address is not blocked by this pair.
    expect((await login(t, p.email, p.password, from(newIp()))).status).toBe(303);
    await t.advance(WINDOW + 1000);
    expect((await login(t, p.email, p.password, from(ip))).status).toBe(303);
    expect(await auditActions('auth')).toContain('auth.sign_in_throttled');
  });

  it('a successful sign-in clears its email-and-address count', async () => {
    const p = await makePerson(t, 'viewer');
    const ip = newIp();
    for (let i = 0; i < 4; i++) expect((await login(t, p.email, 'wrong-password-123', from(ip))).status).toBe(401);
    expect((await login(t, p.email, p.password, from(ip))).status).toBe(303);
    // Five more failures are allowed again before the pair is throttled.
    for (let i = 0; i < 5; i++) expect((await login(t, p.email, 'wrong-password-123', from(ip))).status).toBe(401);
    expect429(await login(t, p.email, p.password, from(ip)));
  });

  it('address: 30 failures from one address (any emails), then 429', async () => {
    const ip = newIp();
    for (let i = 0; i < 30; i++) expect((await login(t, uniqueEmail('nobody'), 'wrong-password-123', from(ip))).status).toBe(401);
    const p = await makePerson(t, 'viewer');
    expect429(await login(t, p.email, p.password, from(ip)));
    expect((await login(t, p.email, p.password, from(newIp()))).status).toBe(303);
    await t.advance(WINDOW + 1000);
    expect((await login(t, p.email, p.password, from(ip))).status).toBe(303);
  });

  it('an IPv6 client counts by its /64: 30 failures spread over 30 addresses of one /64, then 429 from a 31st; the next /64 is not held', async () => {
    const net = `2001:db8:${(++ipCounter).toString(16)}:7`;
    for (let i = 1; i <= 30; i++) expect((await login(t, uniqueEmail('nobody'), 'wrong-password-123', from(`${net}::${i.toString(16)}`))).status).toBe(401);
    const p = await makePerson(t, 'viewer');
    expect429(await login(t, p.email, p.password, from(`${net}:ffff:ffff:ffff:ffff`)));
    expect((await login(t, p.email, p.password, from(`${net.slice(0, -1)}8::1`))).status).toBe(303);
    // An IPv4 client behind the same proxy is its own address, as before.
    expect((await login(t, p.email, p.password, from(newIp()))).status).toBe(303);
  });

  it('email: 50 failures for one email (any addresses), then 429 from a new address too', async () => {
    const p = await makePerson(t, 'viewer');
    for (let i = 0; i < 50; i++) expect((await login(t, p.email, 'wrong-password-123', from(newIp()))).status).toBe(401);
    expect429(await login(t, p.email, p.password, from(newIp())));
    await t.advance(WINDOW + 1000);
    expect((await login(t, p.email, p.password, from(newIp()))).status).toBe(303);
  });

  it('the workspace password (empty email) counts as the email `workspace`', async () => {
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await login(t, '', 'not-the-workspace-password', from(ip))).status).toBe(401);
    expect429(await login(t, '', WORKSPACE_PASSWORD, from(ip)));
    const failed = await t.call('GET', '/api/v1/audit-events?type=auth&limit=50');
    expect(failed.body.events.find((e: any) => e.action === 'auth.sign_in_failed')).toMatchObject({
      detail: { email: 'workspace', reason: 'wrong workspace password' },
    });
    await t.advance(WINDOW + 1000);
    const ok = await login(t, '', WORKSPACE_PASSWORD, from(ip));
    expect(ok.status).toBe(303);
  });

  it('person at the code step: 5 wrong codes, then 429 even for the right code', async () => {
    const { p, secret, ip, challenge } = await atCodeStep();
    for (let i = 0; i < 5; i++) expect((await postForm(t, '/login/two-factor', { code: '000000' }, { cookie: challenge, ...from(ip) })).status).toBe(401);
    const now = await serverNow(t);
    expect429(await postForm(t, '/login/two-factor', { code: totpCode(secret, Math.floor(now / 1000)) }, { cookie: challenge, ...from(ip) }));
    const actions = await auditActions('auth');
    expect(actions).toContain('auth.two_factor_failed');
    expect(actions).toContain('auth.two_factor_throttled');
    // After the window (the 10-minute challenge has lapsed too) a fresh sign-in works.
    await t.advance(WINDOW + 1000);
    const again = await login(t, p.email, p.password, from(ip));
    const cookie2 = `${CHALLENGE_COOKIE}=${again.cookies[CHALLENGE_COOKIE]}`;
    const later = await serverNow(t);
    const done = await postForm(t, '/login/two-factor', { code: totpCode(secret, Math.floor(later / 1000)) }, { cookie: cookie2, ...from(ip) });
    expect(done.status).toBe(303);
  });

  it('person on the Account page: 5 wrong current passwords, then 429 for the right one', async () => {
    const p = await makePerson(t, 'viewer');
    await enrolTwoFactor(t, p);
    for (let i = 0; i < 5; i++) {
      const res = await postForm(t, '/account/password', { current: 'wrong-password-123', password: 'Another-Good-Password-42' }, { cookie: p.cookie });
      expect(res.status).toBe(400);
    }
    const blocked = await postForm(t, '/account/password', { current: p.password, password: 'Another-Good-Password-42' }, { cookie: p.cookie });
    expect429(blocked);
    // Turning off two-factor and new recovery codes share the same count.
    expect429(await postForm(t, '/account/recovery-codes', { password: p.password }, { cookie: p.cookie }));
    expect429(await postForm(t, '/account/two-factor/disable', { password: p.password }, { cookie: p.cookie }));
    await t.advance(WINDOW + 1000);
    expect((await postForm(t, '/account/password', { current: p.password, password: 'Another-Good-Password-42' }, { cookie: p.cookie })).status).toBe(200);
  });

  it('workspace-password bearer: 20 wrong guesses from one address, then 429 with Retry-After even for the right one', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) {
      const res = await t.call('GET', '/api/v1/settings', undefined, { token: `guess-${i}`, headers: { 'x-forwarded-for': ip } });
      expect(res.status).toBe(401);
    }
    const blocked = await t.call('GET', '/api/v1/settings', undefined, { token: WORKSPACE_PASSWORD, headers: { 'x-forwarded-for': ip } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other addresses are unaffected.
    expect((await t.call('GET', '/api/v1/settings', undefined, { headers: { 'x-forwarded-for': newIp() } })).status).toBe(200);
    const actions = await auditActions('api');
    expect(actions).toContain('api.bearer_failed');
    expect(actions).toContain('api.bearer_throttled');
    const events = await t.call('GET', '/api/v1/audit-events?type=api&limit=500');
    expect(events.text).not.toContain('guess-1');
    await t.advance(WINDOW + 1000);
    expect((await t.call('GET', '/api/v1/settings', undefined, { headers: { 'x-forwarded-for': ip } })).status).toBe(200);
  });
});

// Security review 2, M-3: other people's wrong guesses from an address never lock out a live credential from it.
describe('bearer guesses (contract 4): only guessable secrets are throttled', () => {
  it('after 25 wrong guesses from an address, a live API token and an OAuth access token still authenticate; the workspace password and unknown tokens get 429', async () => {
    const ip = newIp();
    const { secret } = await makeToken(t, 'viewer', 'never', 'live-behind-nat');
    const person = await makePerson(t, 'approver');
    const client = await registerClient(t, 'mcp', 'NAT client');
    const { access_token } = await connect(t, client, { email: person.email, password: person.password, role: 'viewer', resource: `${t.url}/mcp` });

    const guesses = await Promise.all(
      Array.from({ length: 25 }, (_, i) => t.call('GET', '/api/v1/flows', undefined, { token: `nat-guess-${i}`, headers: { 'x-forwarded-for': ip } })),
    );
    expect(tally(guesses.map((r) => r.status))).toEqual({ 401: 20, 429: 5 });

    expect((await t.call('GET', '/api/v1/flows', undefined, { token: secret, headers: { 'x-forwarded-for': ip } })).status).toBe(200);
    const mcp = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access_token}`,
        'x-forwarded-for': ip,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'nat', version: '1' } },
      }),
    });
    expect(mcp.status).toBe(200);
    await mcp.body?.cancel();

    expect429(await t.call('GET', '/api/v1/flows', undefined, { headers: { 'x-forwarded-for': ip } }));
    expect429(await t.call('GET', '/api/v1/flows', undefined, { token: `${TOKEN_PREFIX}unknown-behind-nat`, headers: { 'x-forwarded-for': ip } }));
    // Nothing a live credential did was counted: still exactly the 20 guesses.
    const { rows } = await t.database.db.query('SELECT count(*)::int AS n FROM auth_failures WHERE key = $1', [`bearer:${ip}`]);
    expect(rows[0].n).toBe(20);
  });
});

/** How many responses had each status, e.g. `{ 401: 5, 429: 35 }`. */
function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/** Audit events of one action and target (or address), counted. */
async function countAudit(action: string, match: (e: any) => boolean): Promise<number> {
  const type = action.split('.')[0];
  const res = await t.call('GET', `/api/v1/audit-events?type=${type}&limit=500`);
  return res.body.events.filter((e: any) => e.action === action && match(e)).length;
}

/** A six-digit code that is none of the three codes accepted now. */
function wrongCodeFor(secret: string, nowMs: number): string {
  const valid = new Set([-30, 0, 30].map((d) => totpCode(secret, Math.floor(nowMs / 1000) + d)));
  for (let c = 0; ; c++) {
    const code = String(c).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

// Security review M1: each attempt is reserved atomically before its credential is checked, so a
// parallel burst gets exactly the limit of credential checks and the rest 429 (not check-then-record).
describe('parallel bursts get exactly the limit of credential checks (spec "Failed-sign-in throttling")', () => {
  it('40 parallel wrong sign-ins for one email from one address: 5 checked (401, audited), 35 refused (429)', async () => {
    const p = await makePerson(t, 'viewer');
    const ip = newIp();
    const results = await Promise.all(Array.from({ length: 40 }, () => login(t, p.email, 'wrong-password-123', from(ip))));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 5, 429: 35 });
    for (const r of results.filter((x) => x.status === 429)) expect429(r);
    expect(await countAudit('auth.sign_in_failed', (e) => e.target === p.email.toLowerCase() && e.ip === ip)).toBe(5);
    // Still throttled for the correct password; the window moves on.
    expect429(await login(t, p.email, p.password, from(ip)));
    await t.advance(WINDOW + 1000);
    expect((await login(t, p.email, p.password, from(ip))).status).toBe(303);
  });

  it('100 parallel wrong workspace-password bearers from one address: 20 compared (401), 80 refused (429)', async () => {
    const ip = newIp();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => t.call('GET', '/api/v1/settings', undefined, { token: `burst-guess-${i}`, headers: { 'x-forwarded-for': ip } })),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 20, 429: 80 });
    expect(await countAudit('api.bearer_failed', (e) => e.ip === ip && e.detail?.reason === 'wrong workspace password')).toBe(20);
    expect(await countAudit('api.bearer_throttled', (e) => e.ip === ip)).toBe(1);
    // The correct workspace password is refused too while the address is over the limit.
    expect((await t.call('GET', '/api/v1/settings', undefined, { headers: { 'x-forwarded-for': ip } })).status).toBe(429);
  });

  it('100 parallel unknown svc_live_ tokens from one address: 20 x 401, 80 x 429', async () => {
    const ip = newIp();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.call('GET', '/api/v1/settings', undefined, { token: `${TOKEN_PREFIX}unknown-burst-token-${i}`, headers: { 'x-forwarded-for': ip } }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 20, 429: 80 });
    expect(await countAudit('api.bearer_failed', (e) => e.ip === ip && e.detail?.reason === 'unknown token')).toBe(20);
  });

  it('the workspace password as bearer is not counted when it matches, even inside a burst', async () => {
    const ip = newIp();
    const right = await Promise.all(Array.from({ length: 30 }, () => t.call('GET', '/api/v1/settings', undefined, { headers: { 'x-forwarded-for': ip } })));
    expect(tally(right.map((r) => r.status))).toEqual({ 200: 30 });
    // All 20 guesses of the address are still available.
    const wrong = await Promise.all(Array.from({ length: 25 }, (_, i) => t.call('GET', '/api/v1/settings', undefined, { token: `after-${i}`, headers: { 'x-forwarded-for': ip } })));
    expect(tally(wrong.map((r) => r.status))).toEqual({ 401: 20, 429: 5 });
  });

  it('40 parallel wrong codes at the code step: 5 checked (401), 35 refused (429)', async () => {
    const { p, secret, ip, challenge } = await atCodeStep();
    const wrong = wrongCodeFor(secret, await serverNow(t));
    const results = await Promise.all(Array.from({ length: 40 }, () => postForm(t, '/login/two-factor', { code: wrong }, { cookie: challenge, ...from(ip) })));
    expect(tally(results.map((r) => r.status))).toEqual({ 401: 5, 429: 35 });
    expect(await countAudit('auth.two_factor_failed', (e) => e.target === p.email)).toBe(5);
  });

  it('40 parallel wrong current passwords on the Account page: 5 checked (400), 35 refused (429)', async () => {
    const p = await makePerson(t, 'viewer');
    const results = await Promise.all(
      Array.from({ length: 40 }, () => postForm(t, '/account/password', { current: 'wrong-password-123', password: 'Another-Good-Password-42' }, { cookie: p.cookie })),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 400: 5, 429: 35 });
    expect429(await postForm(t, '/account/password', { current: p.password, password: 'Another-Good-Password-42' }, { cookie: p.cookie }));
  });
});

describe('TRUST_PROXY off (default): X-Forwarded-For cannot dodge the limits', () => {
  let plain: TestService;
  beforeAll(async () => {
    plain = await startTestService();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('changing X-Forwarded-For does not make a new address', async () => {
    const email = uniqueEmail('spoof');
    await plain.call('POST', '/api/v1/team', { email, role: 'viewer' });
    for (let i = 0; i < 5; i++) expect((await login(plain, email, 'wrong-password-123', from(`203.0.113.${i}`))).status).toBe(401);
    expect((await login(plain, email, 'wrong-password-123', from('203.0.113.99'))).status).toBe(429);
  });
});

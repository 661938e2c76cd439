// Browser protections (spec "Browser protections"): cross-site refusal rows, security headers and CSP nonces on pages.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { getPage, login, makePerson, postForm, type TestPerson } from './identity-client.js';

const REFUSED = { error: 'Cross-site request refused' };

describe('cross-site refusal (HTTPS BASE_URL)', () => {
  const BASE = 'https://app.example.test';
  let t: TestService;
  let p: TestPerson;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestService({ env: { BASE_URL: BASE } });
    const added = await t.call('POST', '/api/v1/team', { email: 'cross@example.test', role: 'operator' });
    const res = await login(t, 'cross@example.test', added.body.temporaryPassword, { origin: BASE });
    expect(res.status).toBe(303);
    cookie = `__Host-svc_session=${res.cookies['__Host-svc_session']}`;
    const changed = await postForm(t, '/account/password', { current: added.body.temporaryPassword, password: 'Harbour-Lantern-Password-1' }, { cookie, origin: BASE });
    expect(changed.status).toBe(200);
    p = { id: added.body.person.id, email: 'cross@example.test', password: 'Harbour-Lantern-Password-1', cookie };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('over HTTPS the cookie is __Host-svc_session with Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
    const res = await login(t, p.email, p.password, { origin: BASE });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('__Host-svc_session='))!;
    expect(set).toMatch(/; Secure/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toMatch(/Domain=/i);
  });

  const rows: [string, Record<string, string>, boolean][] = [
    ['own Origin', { origin: BASE }, true],
    ['another site Origin', { origin: 'https://evil.example' }, false],
    ['a sibling subdomain Origin', { origin: 'https://other.example.test' }, false],
    ['the parent domain Origin', { origin: 'https://example.test' }, false],
    ['own host over http', { origin: 'http://app.example.test' }, false],
    ['Origin null', { origin: 'null' }, false],
    ['no Origin, Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, true],
    ['no Origin, Sec-Fetch-Site none', { 'sec-fetch-site': 'none' }, true],
    ['no Origin, Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, false],
    ['no Origin, Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, false],
    ['neither header (not a browser)', {}, true],
  ];
  for (const [label, headers, allowed] of rows)
    it(`cookie POST with ${label}: ${allowed ? 'allowed' : '403'}`, async () => {
      const res = await postForm(t, '/account/sessions/end-others', {}, { cookie: p.cookie, origin: null, headers });
      if (allowed) expect(res.status).toBe(200);
      else {
        expect(res.status).toBe(403);
        expect(JSON.parse(res.text)).toEqual(REFUSED);
      }
    });

  it('cookie REST calls that change state are refused cross-site; reads are not', async () => {
    const patch = await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' }, { token: null, headers: { cookie: p.cookie, origin: 'https://evil.example' } });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual(REFUSED);
    const same = await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' }, { token: null, headers: { cookie: p.cookie, origin: BASE } });
    expect(same.status).toBe(200);
    const read = await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: p.cookie, origin: 'https://evil.example' } });
    expect(read.status).toBe(200);
  });

  it('bearer requests are exempt', async () => {
    const res = await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' }, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(200);
  });

  it('the sign-in form refuses a cross-site post even without a cookie (login CSRF)', async () => {
    const res = await login(t, '', WORKSPACE_PASSWORD, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual(REFUSED);
    expect(res.cookies['__Host-svc_session']).toBeUndefined();
  });

  it('sign-out from another site is refused (the session survives)', async () => {
    const res = await postForm(t, '/logout', {}, { cookie: p.cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: p.cookie } })).status).toBe(200);
  });
});

describe('local development origin (no BASE_URL)', () => {
  let t: TestService;
  let p: TestPerson;
  beforeAll(async () => {
    t = await startTestService();
    p = await makePerson(t, 'viewer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the listening address and the Host the request came to count as own origin; others do not', async () => {
    const port = new URL(t.url).port;
    expect((await postForm(t, '/account/sessions/end-others', {}, { cookie: p.cookie, origin: t.url })).status).toBe(200);
    // fetch cannot set Host, so this row goes through node:http with the Host a browser at localhost would send.
    const viaLocalhost = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: Number(port), method: 'POST', path: '/account/sessions/end-others',
          headers: { host: `localhost:${port}`, origin: `http://localhost:${port}`, cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': 0 } },
        (res) => { res.resume(); resolve(res.statusCode ?? 0); },
      );
      req.on('error', reject);
      req.end();
    });
    expect(viaLocalhost).toBe(200);
    expect((await postForm(t, '/account/sessions/end-others', {}, { cookie: p.cookie, origin: `http://localhost:${Number(port) + 1}` })).status).toBe(403);
  });
});

describe('security headers and CSP on pages', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pages carry the security headers and a CSP with a fresh nonce that the inline script carries', async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await getPage(t, '/login', null);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('permissions-policy')).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\).*payment=\(\)/);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      const csp = res.headers.get('content-security-policy')!;
      const nonce = /'nonce-([^']+)'/.exec(csp)![1];
      expect(csp).toMatch(/script-src 'self' 'nonce-/);
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("font-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("connect-src 'self'");
      const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
      expect(res.text).not.toMatch(/<style|style="/);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('every identity page carries a CSP (Account, Team, Audit, two-factor enrolment)', async () => {
    const p = await makePerson(t, 'operator');
    for (const path of ['/account', '/team', '/audit', '/account/two-factor']) {
      const res = await getPage(t, path, p.cookie);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toMatch(/'nonce-/);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('pages without a session send the person to sign in; viewers get 403 on operator pages', async () => {
    const res = await getPage(t, '/team', null);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?next=%2Fteam');
    const viewer = await makePerson(t, 'viewer');
    expect((await getPage(t, '/team', viewer.cookie)).status).toBe(403);
    expect((await getPage(t, '/audit', viewer.cookie)).status).toBe(403);
  });

  it('sign-in follows a local `next` only', async () => {
    const p = await makePerson(t, 'viewer');
    expect((await postForm(t, '/login', { email: p.email, password: p.password, next: '/account' })).location).toBe('/account');
    expect((await postForm(t, '/login', { email: p.email, password: p.password, next: '//evil.example/x' })).location).toBe('/');
    expect((await postForm(t, '/login', { email: p.email, password: p.password, next: 'https://evil.example' })).location).toBe('/');
  });
});

// Sessions (spec "Sessions"): cookie, 30-day absolute and 7-day idle expiry, last use every 5 minutes, ending sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { COOKIE, dataAttrs, getPage, login, makePerson, makeTemporaryPerson, postForm, sessionCookie } from './identity-client.js';

const DAY = 86_400_000;
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const asCookie = (cookie: string) => ({ token: null, headers: { cookie } });
const restStatus = async (cookie: string) => (await t.call('GET', '/api/v1/settings', undefined, asCookie(cookie))).status;

async function lastUsed(cookie: string): Promise<number> {
  const token = decodeURIComponent(cookie.split('=')[1]);
  const { createHash } = await import('node:crypto');
  const { rows } = await t.database.db.query('SELECT last_used_at FROM sessions WHERE token_hash = $1', [createHash('sha256').update(token).digest()]);
  return Number(rows[0].last_used_at);
}

describe('session cookie', () => {
  it('on plain-HTTP localhost the cookie is svc_session, HttpOnly, SameSite=Lax, Path=/; only a hash is stored', async () => {
    const p = await makePerson(t, 'viewer');
    const res = await login(t, p.email, p.password);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Domain=/i);
    const token = res.cookies[COOKIE];
    const { rows } = await t.database.db.query('SELECT * FROM sessions');
    expect(JSON.stringify(rows)).not.toContain(token);
    const events = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=5')).body.events;
    expect(events[0]).toMatchObject({ action: 'auth.sign_in', actor: p.email, actorKind: 'person' });
  });

  it('the workspace password signs in with an empty email as `operator`', async () => {
    const cookie = await sessionCookie(t, '', WORKSPACE_PASSWORD);
    expect((await t.call('GET', '/api/v1/team', undefined, asCookie(cookie))).status).toBe(200);
    const page = await getPage(t, '/account', cookie);
    expect(page.text).toContain('workspace password');
    const events = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=5')).body.events;
    expect(events.find((e: any) => e.action === 'auth.sign_in')).toMatchObject({ actor: 'operator', actorKind: 'workspace' });
  });

  it('a wrong password says only that email and password did not match (unknown email the same)', async () => {
    const p = await makePerson(t, 'viewer');
    const wrong = await login(t, p.email, 'wrong-password-123');
    const unknown = await login(t, 'nobody-here@example.test', 'wrong-password-123');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const msg = (html: string) => /data-error>([^<]*)</.exec(html)?.[1];
    expect(msg(wrong.text)).toBe('Email and password did not match.');
    expect(msg(unknown.text)).toBe(msg(wrong.text));
    const reasons = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=10')).body.events
      .filter((e: any) => e.action === 'auth.sign_in_failed')
      .map((e: any) => e.detail.reason);
    expect(reasons).toEqual(expect.arrayContaining(['wrong password', 'unknown email']));
  });
});

describe('session lifetime (test clock)', () => {
  it('ends 7 days after the last use (idle)', async () => {
    const p = await makePerson(t, 'viewer');
    await t.advance(7 * DAY - 60_000);
    expect(await restStatus(p.cookie)).toBe(200); // used: idle clock restarts
    await t.advance(7 * DAY - 60_000);
    expect(await restStatus(p.cookie)).toBe(200);
    await t.advance(7 * DAY);
    expect(await restStatus(p.cookie)).toBe(401);
    expect((await getPage(t, '/account', p.cookie)).location).toMatch(/^\/login/);
  });

  it('ends 30 days after sign-in even when used every day (absolute)', async () => {
    const p = await makePerson(t, 'viewer');
    for (let day = 6; day <= 24; day += 6) {
      await t.advance(6 * DAY);
      expect(await restStatus(p.cookie), `day ${day}`).toBe(200);
    }
    await t.advance(5 * DAY);
    expect(await restStatus(p.cookie), 'day 29').toBe(200);
    await t.advance(DAY - 60_000);
    expect(await restStatus(p.cookie), 'a minute before day 30').toBe(200);
    await t.advance(61_000);
    expect(await restStatus(p.cookie), 'day 30').toBe(401);
  });

  it('records last use at most every 5 minutes', async () => {
    const p = await makePerson(t, 'viewer');
    const first = await lastUsed(p.cookie);
    await t.advance(60_000);
    await restStatus(p.cookie);
    expect(await lastUsed(p.cookie)).toBe(first);
    await t.advance(4 * 60_000);
    await getPage(t, '/account', p.cookie);
    const after = await lastUsed(p.cookie);
    expect(after).toBeGreaterThanOrEqual(first + 5 * 60_000);
    await t.advance(2 * 60_000);
    await restStatus(p.cookie);
    expect(await lastUsed(p.cookie)).toBe(after);
  });
});

describe('ending sessions', () => {
  it('lists sessions; ends one other; ends all others; sign-out deletes the session', async () => {
    const p = await makePerson(t, 'viewer');
    const b = await sessionCookie(t, p.email, p.password);
    const c = await sessionCookie(t, p.email, p.password);
    const page = await getPage(t, '/account', p.cookie);
    const ids = dataAttrs(page.text, 'session');
    expect(ids).toHaveLength(3);
    const bId = ids.find((id) => page.text.includes(`/account/sessions/${id}/end`))!;
    // End one other session (any of the two others).
    const endOne = await postForm(t, `/account/sessions/${bId}/end`, {}, { cookie: p.cookie });
    expect(endOne.status).toBe(200);
    expect([await restStatus(b), await restStatus(c)].sort()).toEqual([200, 401]);
    const others = await postForm(t, '/account/sessions/end-others', {}, { cookie: p.cookie });
    expect(others.status).toBe(200);
    expect(await restStatus(b)).toBe(401);
    expect(await restStatus(c)).toBe(401);
    expect(await restStatus(p.cookie)).toBe(200);
    const out = await postForm(t, '/logout', {}, { cookie: p.cookie });
    expect(out.status).toBe(303);
    expect(out.cookies[COOKIE]).toBe('');
    expect(await restStatus(p.cookie)).toBe(401);
    const actions = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=10')).body.events.map((e: any) => e.action);
    expect(actions.slice(0, 3)).toEqual(['auth.sign_out', 'auth.other_sessions_ended', 'auth.session_ended']);
  });

  it("another person's session id cannot be ended (404)", async () => {
    const a = await makePerson(t, 'viewer');
    const b = await makePerson(t, 'viewer');
    const bIds = dataAttrs((await getPage(t, '/account', b.cookie)).text, 'session');
    const res = await postForm(t, `/account/sessions/${bIds[0]}/end`, {}, { cookie: a.cookie });
    expect(res.status).toBe(404);
    expect(await restStatus(b.cookie)).toBe(200);
  });

  it('a password change ends the other sessions and keeps this one', async () => {
    const p = await makePerson(t, 'viewer');
    const other = await sessionCookie(t, p.email, p.password);
    const res = await postForm(t, '/account/password', { current: p.password, password: 'Brand-New-Password-77' }, { cookie: p.cookie });
    expect(res.status).toBe(200);
    expect(await restStatus(other)).toBe(401);
    expect(await restStatus(p.cookie)).toBe(200);
    const events = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=3')).body.events;
    expect(events[0]).toMatchObject({ action: 'auth.password_changed', actor: p.email });
  });

  it('password rules apply to a new password', async () => {
    const p = await makePerson(t, 'viewer');
    const short = await postForm(t, '/account/password', { current: p.password, password: 'short' }, { cookie: p.cookie });
    expect(short.status).toBe(400);
    const common = await postForm(t, '/account/password', { current: p.password, password: 'qwertyuiop' }, { cookie: p.cookie });
    expect(common.status).toBe(400);
    expect(common.text).toContain('too common');
    const mine = await postForm(t, '/account/password', { current: p.password, password: `x-${p.email}-x` }, { cookie: p.cookie });
    expect(mine.status).toBe(400);
  });
});

describe('temporary password (spec "Passwords")', () => {
  it('signs in, but pages redirect to Account and REST answers 403 until the person chooses their own', async () => {
    const temp = await makeTemporaryPerson(t, 'operator');
    const cookie = await sessionCookie(t, temp.email, temp.temporaryPassword);
    for (const path of ['/team', '/audit', '/']) {
      const res = await getPage(t, path, cookie);
      expect(res.status, path).toBe(303);
      expect(res.location, path).toBe('/account');
    }
    const account = await getPage(t, '/account', cookie);
    expect(account.status).toBe(200);
    expect(account.text).toContain('Choose your own password');
    const rest = await t.call('GET', '/api/v1/team', undefined, asCookie(cookie));
    expect(rest.status).toBe(403);
    const changed = await postForm(t, '/account/password', { current: temp.temporaryPassword, password: 'Finally-My-Own-Password-1' }, { cookie });
    expect(changed.status).toBe(200);
    expect((await t.call('GET', '/api/v1/team', undefined, asCookie(cookie))).status).toBe(200);
    expect((await getPage(t, '/team', cookie)).status).toBe(200);
  });
});

// Two-factor sign-in through the pages (spec "Two-factor sign-in"): ±1 step, each step once, recovery codes once, requirement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { totpCode } from '../../../src/auth/totp.js';
import {
  CHALLENGE_COOKIE,
  COOKIE,
  dataAttr,
  enrolTwoFactor,
  getPage,
  login,
  makePerson,
  pendingTotpSecret,
  postForm,
  toMiddleOfStep,
  type TestPerson,
} from './identity-client.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

/** Password step then code step; returns the code step's response. */
async function signInWithCode(p: TestPerson, code: string) {
  const first = await login(t, p.email, p.password);
  expect(first.status).toBe(303);
  expect(first.location).toBe('/login/two-factor');
  expect(first.cookies[COOKIE]).toBeUndefined();
  const challenge = `${CHALLENGE_COOKIE}=${first.cookies[CHALLENGE_COOKIE]}`;
  return postForm(t, '/login/two-factor', { code }, { cookie: challenge });
}

async function authEvents() {
  return (await t.call('GET', '/api/v1/audit-events?type=auth&limit=100')).body.events as any[];
}

describe('two-factor sign-in', () => {
  it('enrolment needs the password and an app code; shows 10 recovery codes xxxxx-xxxxx once', async () => {
    const p = await makePerson(t, 'operator');
    const secret = await pendingTotpSecret(t, p.cookie);
    const page = await getPage(t, '/account/two-factor', p.cookie);
    expect(page.text).toContain('otpauth://totp/');
    const now = await t.advance(0);
    const good = totpCode(secret, Math.floor(now / 1000));
    const wrongPassword = await postForm(t, '/account/two-factor', { password: 'not-my-password-1', code: good }, { cookie: p.cookie });
    expect(wrongPassword.status).toBe(400);
    const wrongCode = await postForm(t, '/account/two-factor', { password: p.password, code: good === '000000' ? '111111' : '000000' }, { cookie: p.cookie });
    expect(wrongCode.status).toBe(400);
    expect(dataAttr(wrongCode.text, 'totp-secret')).toBe(secret);
    const ok = await postForm(t, '/account/two-factor', { password: p.password, code: good }, { cookie: p.cookie });
    expect(ok.status).toBe(200);
    const codes = [...ok.text.matchAll(/data-recovery-code="([^"]+)"/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(new Set(codes).size).toBe(10);
    const account = await getPage(t, '/account', p.cookie);
    expect(dataAttr(account.text, 'recovery-remaining')).toBe('10');
    expect(account.text).not.toContain(codes[0]);
    const stored = await t.database.db.query('SELECT totp_secret FROM people WHERE id = $1', [p.id]);
    expect(stored.rows[0].totp_secret).not.toContain(secret);
    expect((await authEvents())[0].action).toBe('auth.two_factor_enabled');
  });

  it('a page load creates the pending secret only when none is pending and never replaces it; only Start over (a POST, same-origin) does (security review L7)', async () => {
    const p = await makePerson(t, 'viewer');
    const stored = async () => (await t.database.db.query('SELECT totp_pending_secret FROM people WHERE id = $1', [p.id])).rows[0].totp_pending_secret;
    expect(await stored()).toBeNull();
    // The contract's page shows a secret: the first load creates it.
    const secret = await pendingTotpSecret(t, p.cookie);
    const sealed = await stored();
    expect(sealed).not.toBeNull();
    // Later loads, including a cross-site top-level navigation carrying the Lax cookie, show the same one and change nothing.
    for (let i = 0; i < 2; i++) {
      const again = await getPage(t, '/account/two-factor', p.cookie, i === 1 ? { 'sec-fetch-site': 'cross-site' } : {});
      expect(dataAttr(again.text, 'totp-secret')).toBe(secret);
      expect(await stored()).toBe(sealed);
    }
    // Starting over is a state change, refused cross-site by the browser protections.
    const forged = await postForm(t, '/account/two-factor/start', {}, { cookie: p.cookie, origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(await stored()).toBe(sealed);
    // Start over (same origin) replaces the key.
    const restarted = await postForm(t, '/account/two-factor/start', {}, { cookie: p.cookie });
    expect(restarted.status).toBe(303);
    expect(restarted.location).toBe('/account/two-factor');
    const fresh = dataAttr((await getPage(t, '/account/two-factor', p.cookie)).text, 'totp-secret');
    expect(fresh).not.toBe(secret);
    expect(await stored()).not.toBe(sealed);
  });

  it('two page loads at once show the same new secret (the creation is a compare-and-set)', async () => {
    const p = await makePerson(t, 'viewer');
    const pages = await Promise.all([0, 1, 2].map(() => getPage(t, '/account/two-factor', p.cookie)));
    const secrets = new Set(pages.map((x) => dataAttr(x.text, 'totp-secret')));
    expect(secrets.size).toBe(1);
    expect([...secrets][0]).toMatch(/^[A-Z2-7]+=*$/);
  });

  it('accepts the step before and after, refuses two steps away and a reused step; a recovery code works once', async () => {
    const p = await makePerson(t, 'approver');
    const { secret, codes } = await enrolTwoFactor(t, p);
    const mid = await toMiddleOfStep(t);
    const step = Math.floor(mid / 30_000);
    const at = (s: number) => totpCode(secret, s * 30);

    const before = await signInWithCode(p, at(step - 1));
    expect(before.status).toBe(303);
    expect(before.cookies[COOKIE]).toBeTruthy();
    const after = await signInWithCode(p, at(step + 1));
    expect(after.status).toBe(303);
    // Each step's code works once.
    const reused = await signInWithCode(p, at(step - 1));
    expect(reused.status).toBe(401);
    expect(reused.text).toContain('That code is not correct');
    const distinct = (s: number) => ![step - 1, step, step + 1].some((x) => at(x) === at(s));
    if (distinct(step - 2)) expect((await signInWithCode(p, at(step - 2))).status).toBe(401);
    if (distinct(step + 2)) expect((await signInWithCode(p, at(step + 2))).status).toBe(401);

    const recovery = await signInWithCode(p, codes[3].toUpperCase());
    expect(recovery.status).toBe(303);
    expect((await signInWithCode(p, codes[3])).status).toBe(401);
    const events = await authEvents();
    expect(events.find((e) => e.action === 'auth.recovery_code_used')).toMatchObject({ target: p.email, detail: { remaining: 9 } });
    expect(events.find((e) => e.action === 'auth.sign_in' && e.detail.twoFactor === 'recovery code')).toBeTruthy();
    expect(events.find((e) => e.action === 'auth.sign_in' && e.detail.twoFactor === 'app')).toBeTruthy();
    expect(events.some((e) => e.action === 'auth.two_factor_failed')).toBe(true);
    const account = await getPage(t, '/account', `${COOKIE}=${recovery.cookies[COOKIE]}`);
    expect(dataAttr(account.text, 'recovery-remaining')).toBe('9');
  });

  it('the code step lasts 10 minutes', async () => {
    const p = await makePerson(t, 'viewer');
    const { secret } = await enrolTwoFactor(t, p);
    const first = await login(t, p.email, p.password);
    const challenge = `${CHALLENGE_COOKIE}=${first.cookies[CHALLENGE_COOKIE]}`;
    const now = await t.advance(10 * 60_000 + 1000);
    const res = await postForm(t, '/login/two-factor', { code: totpCode(secret, Math.floor(now / 1000)) }, { cookie: challenge });
    expect(res.status).toBe(401);
    expect(res.text).toContain('expired');
  });

  it('new recovery codes replace all and need the password; warning at three left', async () => {
    const p = await makePerson(t, 'viewer');
    const { codes } = await enrolTwoFactor(t, p);
    expect((await postForm(t, '/account/recovery-codes', { password: 'wrong-password-x' }, { cookie: p.cookie })).status).toBe(400);
    const res = await postForm(t, '/account/recovery-codes', { password: p.password }, { cookie: p.cookie });
    const fresh = [...res.text.matchAll(/data-recovery-code="([^"]+)"/g)].map((m) => m[1]);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    expect((await signInWithCode(p, codes[0])).status).toBe(401);
    for (let i = 0; i < 7; i++) expect((await signInWithCode(p, fresh[i])).status).toBe(303);
    const account = await getPage(t, '/account', p.cookie);
    expect(dataAttr(account.text, 'recovery-remaining')).toBe('3');
    expect(account.text).toContain('Make new ones soon');
    expect((await authEvents()).some((e) => e.action === 'auth.recovery_codes_replaced')).toBe(true);
  });

  it('turning it off asks for the password; operators can reset another person, not themselves', async () => {
    const p = await makePerson(t, 'viewer');
    await enrolTwoFactor(t, p);
    expect((await postForm(t, '/account/two-factor/disable', { password: 'wrong-password-x' }, { cookie: p.cookie })).status).toBe(400);
    const off = await postForm(t, '/account/two-factor/disable', { password: p.password }, { cookie: p.cookie });
    expect(off.status).toBe(200);
    expect(off.text).toContain('data-two-factor="off"');
    // Reset by an operator (enrolling again in the next step: the earlier step's code was used).
    await t.advance(30_000);
    await enrolTwoFactor(t, p);
    expect((await t.call('POST', `/api/v1/team/${p.id}/reset-two-factor`)).body).toEqual({ ok: true });
    expect((await login(t, p.email, p.password)).location).not.toBe('/login/two-factor');
  });
});

describe('two-factor requirement (spec "Team management": requirement setting)', () => {
  it('a covered person without two-factor gets only the Account page; REST 403; cannot turn it off while required', async () => {
    const op = await makePerson(t, 'operator');
    const viewer = await makePerson(t, 'viewer');
    expect((await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'operators' })).status).toBe(200);
    const rest = await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: op.cookie } });
    expect(rest.status).toBe(403);
    expect(rest.body.error).toMatch(/two-factor/i);
    const team = await getPage(t, '/team', op.cookie);
    expect(team.status).toBe(303);
    expect(team.location).toBe('/account');
    expect((await getPage(t, '/account', op.cookie)).status).toBe(200);
    // A viewer is not covered by "operators".
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: viewer.cookie } })).status).toBe(200);
    // After enrolling, the operator is free again and cannot turn it off while required.
    await enrolTwoFactor(t, op);
    expect((await t.call('GET', '/api/v1/team', undefined, { token: null, headers: { cookie: op.cookie } })).status).toBe(200);
    expect((await postForm(t, '/account/two-factor/disable', { password: op.password }, { cookie: op.cookie })).status).toBe(403);
    // New recovery codes are still allowed.
    expect((await postForm(t, '/account/recovery-codes', { password: op.password }, { cookie: op.cookie })).status).toBe(200);
    // "everyone" now covers the viewer.
    await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'everyone' });
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: viewer.cookie } })).status).toBe(403);
    await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' });
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: viewer.cookie } })).status).toBe(200);
  });

  it('the setting is also changed on /team (audited)', async () => {
    const op = await makePerson(t, 'operator');
    const res = await postForm(t, '/team/two-factor-requirement', { twoFactorRequirement: 'approvers_and_operators' }, { cookie: op.cookie });
    expect(res.status).toBe(200);
    expect(dataAttr(res.text, 'two-factor-requirement')).toBe('approvers_and_operators');
    expect((await t.call('GET', '/api/v1/settings')).body.twoFactorRequirement).toBe('approvers_and_operators');
    await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' });
  });
});

// API tokens, team management and settings over REST (contract section 4; spec "Team management", "People, sessions, tokens").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makePerson, makeToken, uniqueEmail, postForm, login } from './identity-client.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

async function audit(type?: string) {
  const res = await t.call('GET', `/api/v1/audit-events${type ? `?type=${type}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.events as any[];
}

describe('API tokens', () => {
  it('creates svc_live_ tokens shown once, stores only a hash, lists without secrets (spec "API token")', async () => {
    const { secret, token, id } = await makeToken(t, 'viewer', '90d', 'reader');
    expect(secret).toMatch(/^svc_live_[A-Za-z0-9_-]{40,}$/);
    expect(token.prefix).toBe(secret.slice(0, 12));
    expect(token.expiresAt - token.createdAt).toBe(90 * 86_400_000);
    const list = await t.call('GET', '/api/v1/api-tokens');
    expect(list.text).not.toContain(secret);
    expect(list.body.tokens.find((x: any) => x.id === id)).toMatchObject({ name: 'reader', role: 'viewer', createdBy: 'api', lastUsedAt: null });
    const stored = await t.database.db.query('SELECT * FROM api_tokens WHERE id = $1', [id]);
    expect(JSON.stringify(stored.rows[0])).not.toContain(secret.slice(9));
    const events = await audit('token');
    expect(events[0]).toMatchObject({ action: 'token.created', target: 'reader', detail: { role: 'viewer', prefix: token.prefix, expiresAt: token.expiresAt } });
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('expiry choices are 30d, 90d (default), 1y, never', async () => {
    const make = (body: any) => t.call('POST', '/api/v1/api-tokens', body);
    const d30 = (await make({ name: 'a', role: 'viewer', expiresIn: '30d' })).body.token;
    const dflt = (await make({ name: 'b', role: 'viewer' })).body.token;
    const y1 = (await make({ name: 'c', role: 'viewer', expiresIn: '1y' })).body.token;
    const never = (await make({ name: 'd', role: 'viewer', expiresIn: 'never' })).body.token;
    expect(d30.expiresAt - d30.createdAt).toBe(30 * 86_400_000);
    expect(dflt.expiresAt - dflt.createdAt).toBe(90 * 86_400_000);
    expect(y1.expiresAt - y1.createdAt).toBe(365 * 86_400_000);
    expect(never.expiresAt).toBeNull();
    const bad = await make({ name: 'e', role: 'viewer', expiresIn: '2d' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('expiresIn');
  });

  it("a token's role limits it; last use is recorded; approval actor is token:<name>", async () => {
    const viewer = await makeToken(t, 'viewer', 'never', 'limited');
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: viewer.secret })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/team', undefined, { token: viewer.secret })).status).toBe(403);
    const list = await t.call('GET', '/api/v1/api-tokens');
    expect(list.body.tokens.find((x: any) => x.id === viewer.id).lastUsedAt).toBeTypeOf('number');
  });

  it('a revoked token gets 401 at once; revoking twice is 404; audited token.revoked', async () => {
    const tok = await makeToken(t, 'operator', 'never', 'to-revoke');
    expect((await t.call('DELETE', `/api/v1/api-tokens/${tok.id}`)).body).toEqual({ ok: true });
    const res = await t.call('GET', '/api/v1/team', undefined, { token: tok.secret });
    expect(res.status).toBe(401);
    expect((await t.call('DELETE', `/api/v1/api-tokens/${tok.id}`)).status).toBe(404);
    expect((await audit('token'))[0]).toMatchObject({ action: 'token.revoked', target: 'to-revoke' });
  });
});

describe('Team management over REST', () => {
  it('adds a person with a 20-character temporary password; duplicate email is 409 (spec "Team management")', async () => {
    const email = uniqueEmail('new');
    const res = await t.call('POST', '/api/v1/team', { email, name: 'New One', role: 'approver' });
    expect(res.status).toBe(201);
    expect(res.body.temporaryPassword).toHaveLength(20);
    expect(res.body.person).toMatchObject({ email, name: 'New One', role: 'approver', enabled: true, temporaryPassword: true, twoFactor: { enabled: false } });
    expect((await t.call('POST', '/api/v1/team', { email: email.toUpperCase(), role: 'viewer' })).status).toBe(409);
    const stored = await t.database.db.query('SELECT password_hash FROM people WHERE id = $1', [res.body.person.id]);
    expect(stored.rows[0].password_hash).toMatch(/^pbkdf2-sha256\$1000\$/);
    expect(stored.rows[0].password_hash).not.toContain(res.body.temporaryPassword);
    const team = await t.call('GET', '/api/v1/team');
    expect(team.body.people.some((p: any) => p.email === email)).toBe(true);
    expect(team.text).not.toContain('pbkdf2');
  });

  it('an invalid body is a 400 with issues', async () => {
    const res = await t.call('POST', '/api/v1/team', { email: 'not-an-email', role: 'boss' });
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: any) => i.path).sort()).toEqual(['email', 'role']);
  });

  it('changes role, disables (ending sessions) and enables; audited', async () => {
    const person = await makePerson(t, 'viewer');
    const up = await t.call('PATCH', `/api/v1/team/${person.id}`, { role: 'approver' });
    expect(up.body.person.role).toBe('approver');
    const off = await t.call('PATCH', `/api/v1/team/${person.id}`, { enabled: false });
    expect(off.body.person.enabled).toBe(false);
    // The disabled person's session has ended and they cannot sign in.
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: person.cookie } })).status).toBe(401);
    expect((await login(t, person.email, person.password)).status).toBe(401);
    expect((await t.call('PATCH', `/api/v1/team/${person.id}`, { enabled: true })).body.person.enabled).toBe(true);
    const actions = (await audit('team')).slice(0, 3).map((e) => e.action);
    expect(actions).toEqual(['team.user_enabled', 'team.user_disabled', 'team.role_changed']);
  });

  it('you cannot lower your own role, disable yourself or reset your own two-factor (403)', async () => {
    const op = await makePerson(t, 'operator');
    const headers = { cookie: op.cookie };
    expect((await t.call('PATCH', `/api/v1/team/${op.id}`, { role: 'viewer' }, { token: null, headers })).status).toBe(403);
    expect((await t.call('PATCH', `/api/v1/team/${op.id}`, { enabled: false }, { token: null, headers })).status).toBe(403);
    expect((await t.call('POST', `/api/v1/team/${op.id}/reset-two-factor`, undefined, { token: null, headers })).status).toBe(403);
    // Raising or keeping your own role is fine.
    expect((await t.call('PATCH', `/api/v1/team/${op.id}`, { role: 'operator' }, { token: null, headers })).status).toBe(200);
  });

  it('reset password gives a new temporary password and signs the person out everywhere', async () => {
    const person = await makePerson(t, 'approver');
    const res = await t.call('POST', `/api/v1/team/${person.id}/reset-password`);
    expect(res.body.temporaryPassword).toHaveLength(20);
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: person.cookie } })).status).toBe(401);
    expect((await login(t, person.email, person.password)).status).toBe(401);
    expect((await login(t, person.email, res.body.temporaryPassword)).status).toBe(303);
    expect((await audit('team'))[0]).toMatchObject({ action: 'team.password_reset', target: person.email });
  });

  it('unknown ids are 404', async () => {
    expect((await t.call('PATCH', '/api/v1/team/usr_nobody', { role: 'viewer' })).status).toBe(404);
    expect((await t.call('POST', '/api/v1/team/usr_nobody/reset-password')).status).toBe(404);
    expect((await t.call('POST', '/api/v1/team/usr_nobody/reset-two-factor')).status).toBe(404);
  });
});

describe('Settings', () => {
  it('GET/PATCH /api/v1/settings reads and changes the requirement, audited team.two_factor_requirement', async () => {
    expect((await t.call('GET', '/api/v1/settings')).body).toEqual({ twoFactorRequirement: 'nobody' });
    const res = await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'operators' });
    expect(res.body).toEqual({ twoFactorRequirement: 'operators' });
    expect((await audit('team'))[0]).toMatchObject({ action: 'team.two_factor_requirement', detail: { from: 'nobody', to: 'operators' } });
    expect((await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'some' })).status).toBe(400);
    await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' });
  });
});

describe('Audit events route', () => {
  it('filters by type, pages with before, limit 1-500 default 100, newest first', async () => {
    const all = await audit();
    for (let i = 1; i < all.length; i++) expect(all[i - 1].at).toBeGreaterThanOrEqual(all[i].at);
    expect(all[0]).toEqual(expect.objectContaining({ id: expect.any(String), at: expect.any(Number), action: expect.any(String), actor: expect.any(String), actorKind: expect.any(String) }));
    const team = await audit('team');
    expect(team.every((e) => e.action.startsWith('team.'))).toBe(true);
    const one = await t.call('GET', '/api/v1/audit-events?limit=1');
    expect(one.body.events).toHaveLength(1);
    const before = await t.call('GET', `/api/v1/audit-events?before=${all[0].at}`);
    expect(before.body.events.every((e: any) => e.at < all[0].at)).toBe(true);
    expect((await t.call('GET', '/api/v1/audit-events?limit=0')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/audit-events?limit=501')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/audit-events?type=orders')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/audit-events?limit=500')).status).toBe(200);
  });

  it('never records passwords (sign-in form password is not in the log)', async () => {
    await postForm(t, '/login', { email: 'x@example.test', password: 'MySecretGuess-123' });
    const res = await t.call('GET', '/api/v1/audit-events?limit=500');
    expect(res.text).not.toContain('MySecretGuess-123');
  });
});

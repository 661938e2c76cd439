// The Team, Audit and Account pages' forms (spec "Team management", "Audit log"; contract section 4 data-* attributes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { dataAttr, dataAttrs, getPage, login, makePerson, postForm, sessionCookie, type TestPerson } from './identity-client.js';

let t: TestService;
let op: TestPerson;
beforeAll(async () => {
  t = await startTestService();
  op = await makePerson(t, 'operator');
});
afterAll(async () => {
  await t?.close();
});

describe('/team page', () => {
  it('adds a person and shows the temporary password once; changes role; disables and enables; resets password and two-factor', async () => {
    const added = await postForm(t, '/team/people', { email: 'page-added@example.test', name: 'Paige', role: 'viewer' }, { cookie: op.cookie });
    expect(added.status).toBe(201);
    const temp = dataAttr(added.text, 'temporary-password')!;
    expect(temp).toHaveLength(20);
    const id = /data-person="([^"]+)" data-email="page-added@example.test"/.exec(added.text)![1];
    const again = await getPage(t, '/team', op.cookie);
    expect(again.text).not.toContain(temp);

    const role = await postForm(t, `/team/people/${id}/role`, { role: 'approver' }, { cookie: op.cookie });
    expect(role.status).toBe(200);
    expect(role.text).toContain('is now approver');

    const theirs = await sessionCookie(t, 'page-added@example.test', temp);
    const off = await postForm(t, `/team/people/${id}/enabled`, { enabled: 'false' }, { cookie: op.cookie });
    expect(off.text).toContain('is disabled');
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: null, headers: { cookie: theirs } })).status).toBe(401);
    expect((await postForm(t, `/team/people/${id}/enabled`, { enabled: 'true' }, { cookie: op.cookie })).text).toContain('is enabled');

    const reset = await postForm(t, `/team/people/${id}/reset-password`, {}, { cookie: op.cookie });
    const newTemp = dataAttr(reset.text, 'temporary-password')!;
    expect(newTemp).toHaveLength(20);
    expect((await login(t, 'page-added@example.test', temp)).status).toBe(401);
    expect((await login(t, 'page-added@example.test', newTemp)).status).toBe(303);

    const twoFactor = await postForm(t, `/team/people/${id}/reset-two-factor`, {}, { cookie: op.cookie });
    expect(twoFactor.status).toBe(200);
  });

  it('refuses lowering your own role, disabling yourself and resetting your own two-factor with the reason', async () => {
    const role = await postForm(t, `/team/people/${op.id}/role`, { role: 'viewer' }, { cookie: op.cookie });
    expect(role.status).toBe(403);
    expect(role.text).toContain('You cannot lower your own role');
    const disable = await postForm(t, `/team/people/${op.id}/enabled`, { enabled: 'false' }, { cookie: op.cookie });
    expect(disable.status).toBe(403);
    const tf = await postForm(t, `/team/people/${op.id}/reset-two-factor`, {}, { cookie: op.cookie });
    expect(tf.status).toBe(403);
    const dup = await postForm(t, '/team/people', { email: op.email, role: 'viewer' }, { cookie: op.cookie });
    expect(dup.status).toBe(409);
  });
});

describe('/audit page', () => {
  it('lists events newest first, filters by type', async () => {
    const all = await getPage(t, '/audit', op.cookie);
    expect(all.status).toBe(200);
    const actions = dataAttrs(all.text, 'action');
    expect(actions.length).toBeGreaterThan(3);
    const team = await getPage(t, '/audit?type=team', op.cookie);
    const teamActions = dataAttrs(team.text, 'action');
    expect(teamActions.length).toBeGreaterThan(0);
    expect(teamActions.every((a) => a.startsWith('team.'))).toBe(true);
  });
});

describe('Account page API tokens (operator)', () => {
  it('creates a token shown once and revokes it', async () => {
    const created = await postForm(t, '/account/api-tokens', { name: 'from-page', role: 'approver', expiresIn: '30d' }, { cookie: op.cookie });
    expect(created.status).toBe(201);
    const secret = dataAttr(created.text, 'api-token-secret')!;
    expect(secret).toMatch(/^svc_live_/);
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: secret })).status).toBe(200);
    const page = await getPage(t, '/account', op.cookie);
    expect(page.text).not.toContain(secret);
    const id = dataAttrs(page.text, 'api-token')[0];
    // 30 days is within the 14-day highlight only later; the row exists with its prefix.
    expect(page.text).toContain(secret.slice(0, 12));
    const revoked = await postForm(t, `/account/api-tokens/${id}/revoke`, {}, { cookie: op.cookie });
    expect(revoked.status).toBe(200);
    expect((await t.call('GET', '/api/v1/settings', undefined, { token: secret })).status).toBe(401);
  });

  it('tokens expiring within 14 days are highlighted', async () => {
    await postForm(t, '/account/api-tokens', { name: 'soon', role: 'viewer', expiresIn: '30d' }, { cookie: op.cookie });
    await t.advance(17 * 86_400_000);
    // The old session idled out over those days: sign in again.
    const page = await getPage(t, '/account', await sessionCookie(t, op.email, op.password));
    expect(page.text).toMatch(/class="soon"[^>]*>[^<]*\(soon\)/);
  });

  it('viewers have no token section and cannot post to it', async () => {
    const viewer = await makePerson(t, 'viewer');
    const page = await getPage(t, '/account', viewer.cookie);
    expect(page.text).not.toContain('API tokens');
    expect((await postForm(t, '/account/api-tokens', { name: 'x', role: 'operator', expiresIn: 'never' }, { cookie: viewer.cookie })).status).toBe(403);
  });
});

// An API token acts for its creator (security review H3): disabled creator -> 401, role capped by the creator's current role.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { dataAttr, makePerson, makeToken, postForm, sessionCookie, type TestPerson } from './identity-client.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

/** An operator token made by the person on their Account page, as a person would. */
async function tokenOf(person: TestPerson, name: string): Promise<string> {
  const res = await postForm(t, '/account/api-tokens', { name, role: 'operator', expiresIn: 'never' }, { cookie: person.cookie });
  expect(res.status, res.text.slice(0, 300)).toBe(201);
  return dataAttr(res.text, 'api-token-secret')!;
}

const asToken = (secret: string) => ({ token: secret });
/** An operator-only route and a viewer route. */
const operatorRoute = (secret: string) => t.call('GET', '/api/v1/team', undefined, asToken(secret));
const viewerRoute = (secret: string) => t.call('GET', '/api/v1/flows', undefined, asToken(secret));
const setPerson = (id: string, patch: Record<string, unknown>) => t.call('PATCH', `/api/v1/team/${id}`, patch);

describe('an API token acts for its creator (spec "Roles": a token is limited like a person)', () => {
  it('demoting the creator caps the token at their current role; promoting them back lifts the cap', async () => {
    const bob = await makePerson(t, 'operator', 'bob');
    const secret = await tokenOf(bob, 'bob-ops');
    expect((await operatorRoute(secret)).status).toBe(200);

    expect((await setPerson(bob.id, { role: 'viewer' })).status).toBe(200);
    const refused = await operatorRoute(secret);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('This needs the operator role');
    expect((await viewerRoute(secret)).status).toBe(200);
    // Nor can it mint an operator token for itself any more.
    expect((await t.call('POST', '/api/v1/api-tokens', { name: 'escape', role: 'operator' }, asToken(secret))).status).toBe(403);

    expect((await setPerson(bob.id, { role: 'operator' })).status).toBe(200);
    expect((await operatorRoute(secret)).status).toBe(200);
  });

  it('disabling the creator refuses the token (401, audited with the reason); enabling restores it, capped', async () => {
    const bob = await makePerson(t, 'operator', 'bob');
    const secret = await tokenOf(bob, 'bob-offboard');
    expect((await setPerson(bob.id, { role: 'viewer' })).status).toBe(200);
    expect((await setPerson(bob.id, { enabled: false })).status).toBe(200);

    const refused = await viewerRoute(secret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("This API token's owner is disabled");
    expect((await t.call('POST', '/api/v1/team', { email: 'backdoor@example.test', role: 'operator' }, asToken(secret))).status).toBe(401);
    const events = (await t.call('GET', '/api/v1/audit-events?type=api&limit=50')).body.events as any[];
    expect(events.find((e) => e.action === 'api.bearer_failed' && e.target === 'bob-offboard')).toMatchObject({
      detail: { reason: 'token owner disabled', ownerId: bob.id, owner: bob.email, prefix: secret.slice(0, 12) },
    });
    // A known token refused for its owner is no guess: it never throttles the address.
    const many = await Promise.all(Array.from({ length: 25 }, () => viewerRoute(secret)));
    expect(new Set(many.map((r) => r.status))).toEqual(new Set([401]));

    expect((await setPerson(bob.id, { enabled: true })).status).toBe(200);
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await operatorRoute(secret)).status).toBe(403);
  });

  it('a token made through another token acts for the same person', async () => {
    const bob = await makePerson(t, 'operator', 'bob');
    const first = await tokenOf(bob, 'bob-first');
    const made = await t.call('POST', '/api/v1/api-tokens', { name: 'bob-second', role: 'operator', expiresIn: 'never' }, asToken(first));
    expect(made.status).toBe(201);
    const second = made.body.secret as string;

    expect((await setPerson(bob.id, { role: 'approver' })).status).toBe(200);
    expect((await operatorRoute(second)).status).toBe(403);
    expect((await setPerson(bob.id, { enabled: false })).status).toBe(200);
    expect((await viewerRoute(second)).status).toBe(401);
    // token.created records whom the new token acts for.
    const created = (await t.call('GET', '/api/v1/audit-events?type=token&limit=50')).body.events.find((e: any) => e.target === 'bob-second');
    expect(created.detail.ownerId).toBe(bob.id);
  });

  it("the creator's temporary password or missing required two-factor restricts their tokens (403) until resolved", async () => {
    const bob = await makePerson(t, 'operator', 'bob');
    const secret = await tokenOf(bob, 'bob-restricted');

    const reset = await t.call('POST', `/api/v1/team/${bob.id}/reset-password`);
    expect(reset.status).toBe(200);
    const temporary = await viewerRoute(secret);
    expect(temporary.status).toBe(403);
    expect(temporary.body.error).toMatch(/owner must choose their own password/);
    const cookie = await sessionCookie(t, bob.email, reset.body.temporaryPassword);
    const own = await postForm(t, '/account/password', { current: reset.body.temporaryPassword, password: 'Bobs-Own-Password-Again-9' }, { cookie });
    expect(own.status).toBe(200);
    expect((await operatorRoute(secret)).status).toBe(200);

    expect((await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'operators' })).status).toBe(200);
    const required = await operatorRoute(secret);
    expect(required.status).toBe(403);
    expect(required.body.error).toMatch(/owner must turn on two-factor/);
    expect((await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' })).status).toBe(200);
    expect((await operatorRoute(secret)).status).toBe(200);
  });

  it('migration 0010: tokens recorded as made by another token (the old way) act for the person at the start of the chain', async () => {
    const bob = await makePerson(t, 'operator', 'bob');
    const root = await tokenOf(bob, 'bob-root');
    const child = await makeToken(t, 'operator', 'never', 'bob-child');
    const grandchild = await makeToken(t, 'operator', 'never', 'bob-grandchild');
    const workspaceRoot = await makeToken(t, 'operator', 'never', 'ws-root');
    const workspaceChild = await makeToken(t, 'operator', 'never', 'ws-child');
    const db = t.database.db;
    const idOf = async (name: string) => (await db.query('SELECT id FROM api_tokens WHERE name = $1', [name])).rows[0].id as string;
    // What the code used to record: the making token's id.
    await db.query('UPDATE api_tokens SET created_by_id = $2 WHERE id = $1', [child.id, await idOf('bob-root')]);
    await db.query('UPDATE api_tokens SET created_by_id = $2 WHERE id = $1', [grandchild.id, child.id]);
    await db.query('UPDATE api_tokens SET created_by_id = $2 WHERE id = $1', [workspaceChild.id, workspaceRoot.id]);
    await db.query(readFileSync(new URL('../../../src/db/migrations/0010_api_token_owner.sql', import.meta.url), 'utf8'));
    const ownerOf = async (id: string) => (await db.query('SELECT created_by_id FROM api_tokens WHERE id = $1', [id])).rows[0].created_by_id;
    expect(await ownerOf(child.id)).toBe(bob.id);
    expect(await ownerOf(grandchild.id)).toBe(bob.id);
    expect(await ownerOf(workspaceChild.id)).toBeNull();

    expect((await setPerson(bob.id, { role: 'viewer' })).status).toBe(200);
    for (const secret of [root, child.secret, grandchild.secret]) expect((await operatorRoute(secret)).status).toBe(403);
    expect((await operatorRoute(workspaceChild.secret)).status).toBe(200);
  });

  it('a token made with the workspace password has no owner and keeps its role', async () => {
    const { secret } = await makeToken(t, 'operator', 'never', 'workspace-ops');
    const created = (await t.call('GET', '/api/v1/audit-events?type=token&limit=50')).body.events.find((e: any) => e.target === 'workspace-ops');
    expect(created.detail.ownerId).toBeNull();
    expect((await operatorRoute(secret)).status).toBe(200);
    expect((await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'everyone' })).status).toBe(200);
    expect((await operatorRoute(secret)).status).toBe(200);
    expect((await t.call('PATCH', '/api/v1/settings', { twoFactorRequirement: 'nobody' })).status).toBe(200);
  });
});

// Role matrix: every operation of the registry through its REST route, and every raw role route (so new ones join
// automatically), against every kind of caller; the role each must refuse below is read from the registry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { roleAtLeast, type Role } from '../../../src/auth/roles.js';
import { isBoundRoute, type HttpRoute } from '../../../src/http/route.js';
import { makeTemporaryPerson, makeToken, sessionCookie } from './identity-client.js';

const DAY = 86_400_000;
let t: TestService;
let routes: HttpRoute[];
const tokens: Record<string, string> = {};
let tempCookie: string;
let expiredId: string;

beforeAll(async () => {
  t = await startTestService();
  for (const role of ['viewer', 'approver', 'operator'] as const) tokens[role] = (await makeToken(t, role, 'never', `matrix-${role}`)).secret;
  const expiring = await makeToken(t, 'operator', '30d', 'matrix-expiring');
  tokens.expired = expiring.secret;
  expiredId = expiring.id;
  const revoked = await makeToken(t, 'operator', 'never', 'matrix-revoked');
  await t.call('DELETE', `/api/v1/api-tokens/${revoked.id}`);
  tokens.revoked = revoked.secret;
  await t.advance(31 * DAY);
  const temp = await makeTemporaryPerson(t, 'operator');
  tempCookie = await sessionCookie(t, temp.email, temp.temporaryPassword);
  routes = t.service.ctx.routes.filter((r) => r.access !== 'public' && r.access !== 'self');
});
afterAll(async () => {
  await t?.close();
});

/** Fills `:param` segments with an id that names nothing, so no call can change a real resource. */
const concrete = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, 'matrix-unknown-$1');

function call(route: HttpRoute, as: { token?: string | null; cookie?: string }) {
  return t.call(route.method, concrete(route.path), undefined, {
    token: as.token ?? null,
    headers: as.cookie ? { cookie: as.cookie } : {},
  });
}

describe('role matrix (spec "Roles": every request checks the role server-side)', () => {
  it('every operation of the registry has one REST route carrying its role, and the routes match openapi.json', async () => {
    const registry = t.service.ctx.operations;
    const bound = t.service.ctx.routes.filter(isBoundRoute);
    for (const op of registry.list().filter((o) => o.audience !== 'agents')) {
      const mine = bound.filter((r) => r.operationId === op.name);
      expect(mine.map((r) => r.access), op.name).toEqual([op.role]);
      expect(routes, op.name).toContain(mine[0]);
    }
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const p of ['get /api/v1/api-tokens', 'post /api/v1/team', 'patch /api/v1/settings', 'get /api/v1/audit-events'])
      expect(paths).toContain(p);
    const doc = (await t.call('GET', '/api/v1/openapi.json', undefined, { token: null })).body;
    for (const route of t.service.ctx.routes) {
      const op = doc.paths[route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[route.method];
      expect(op, `${route.method} ${route.path} in openapi.json`).toBeTruthy();
      expect(op['x-required-role']).toBe(route.access);
    }
  });

  it('no credential: 401 on every role route', async () => {
    for (const route of routes) expect((await call(route, {})).status, `${route.method} ${route.path}`).toBe(401);
  });

  it('expired token: 401 stating the expiry date; revoked token: 401', async () => {
    for (const route of routes) {
      const expired = await call(route, { token: tokens.expired });
      expect(expired.status, `${route.method} ${route.path}`).toBe(401);
      expect(expired.body.error).toMatch(/expired on \d{4}-\d{2}-\d{2}T/);
      expect((await call(route, { token: tokens.revoked })).status, `${route.method} ${route.path}`).toBe(401);
    }
  });

  it('temporary-password session: 403 on every route that does not allow restricted callers', async () => {
    for (const route of routes) {
      const res = await call(route, { cookie: tempCookie });
      if (route.allowRestricted) expect(res.status).not.toBe(401);
      else expect(res.status, `${route.method} ${route.path}`).toBe(403);
    }
  });

  for (const role of ['viewer', 'approver', 'operator'] as Role[])
    it(`${role} token: 403 below the route's role, allowed (not 401/403) at or above it`, async () => {
      for (const route of routes) {
        const res = await call(route, { token: tokens[role] });
        const label = `${role} ${route.method} ${route.path} -> ${res.status} ${res.text.slice(0, 120)}`;
        if (roleAtLeast(role, route.access as Role)) expect([401, 403], label).not.toContain(res.status);
        else expect(res.status, label).toBe(403);
      }
    });

  it('api.token_expired is audited at most hourly per token', async () => {
    const count = async () =>
      (await t.call('GET', '/api/v1/audit-events?type=api&limit=500')).body.events.filter(
        (e: any) => e.action === 'api.token_expired' && e.detail.tokenId === expiredId,
      ).length;
    const before = await count();
    expect(before).toBe(1); // the matrix above used it many times within the hour
    await t.call('GET', '/api/v1/settings', undefined, { token: tokens.expired });
    expect(await count()).toBe(1);
    await t.advance(3_600_000);
    await t.call('GET', '/api/v1/settings', undefined, { token: tokens.expired });
    expect(await count()).toBe(2);
  });
});

// Integrations API: create (secret once), list, rotate with a 24-hour overlap, revoke, roles, audit, secrets sealed at rest
// (spec "Integration", "Integrations", "Audit log"; contract section 10 defaults).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { createIntegration, signed, startChannelsService } from './channels-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startChannelsService();
});
afterAll(async () => {
  await t?.close();
});

const INTEGRATION_FIELDS = ['id', 'name', 'events', 'startOrders', 'flows', 'channel', 'createdAt', 'createdBy', 'lastUsedAt', 'revokedAt', 'previousExpiresAt'].sort();
const DAY = 24 * 60 * 60 * 1000;

async function tokenFor(role: 'viewer' | 'approver' | 'operator'): Promise<string> {
  const res = await t.call('POST', '/api/v1/api-tokens', { name: `${role}-${Math.random().toString(36).slice(2, 8)}`, role, expiresIn: '90d' });
  return res.body.secret;
}

describe('create', () => {
  it('201 { integration, secret }: whsec_ secret once, contract defaults (events [], startOrders false, flows [], channel null)', async () => {
    const before = t.service.ctx.clock.now();
    const res = await t.call('POST', '/api/v1/integrations', { name: 'Acme seller portal' });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/);
    expect(Object.keys(res.body.integration).sort()).toEqual(INTEGRATION_FIELDS);
    expect(res.body.integration).toMatchObject({
      id: expect.stringMatching(/^int_[0-9a-f]{24}$/),
      name: 'Acme seller portal',
      events: [],
      startOrders: false,
      flows: [],
      channel: null,
      createdBy: 'api',
      lastUsedAt: null,
      revokedAt: null,
      previousExpiresAt: null,
    });
    expect(res.body.integration.createdAt).toBeGreaterThanOrEqual(before);
  });

  it('keeps the scope given: events, startOrders, flows (or [*]) and one channel', async () => {
    const res = await t.call('POST', '/api/v1/integrations', { name: 'POS', events: ['*'], startOrders: true, flows: ['tpl-pos-sale'], channel: 'pos' });
    expect(res.status).toBe(201);
    expect(res.body.integration).toMatchObject({ events: ['*'], startOrders: true, flows: ['tpl-pos-sale'], channel: 'pos' });
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['empty name', { name: '' }, 'name'],
    ['name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['no name', {}, 'name'],
    ['unknown channel', { name: 'x', channel: 'fax' }, 'channel'],
    ['events not a list', { name: 'x', events: 'seller.responded' }, 'events'],
    ['event name over 100', { name: 'x', events: ['e'.repeat(101)] }, 'events.0'],
    ['startOrders not boolean', { name: 'x', startOrders: 'yes' }, 'startOrders'],
    ['unknown field', { name: 'x', secret: 'whsec_mine' }, ''],
  ];
  for (const [what, body, path] of invalid)
    it(`400 with issues and nothing created: ${what}`, async () => {
      const before = (await t.call('GET', '/api/v1/integrations')).body.integrations.length;
      const res = await t.call('POST', '/api/v1/integrations', body);
      expect(res.status).toBe(400);
      expect(res.body.issues.some((i: { path: string }) => i.path.startsWith(path))).toBe(true);
      expect((await t.call('GET', '/api/v1/integrations')).body.integrations.length).toBe(before);
    });

  it('a name of exactly 100 characters is accepted', async () => {
    expect((await t.call('POST', '/api/v1/integrations', { name: 'n'.repeat(100) })).status).toBe(201);
  });
});

describe('list, rotate, revoke', () => {
  it('GET lists every integration newest first with no secret anywhere', async () => {
    const a = await createIntegration(t, { name: 'list-a' });
    const b = await createIntegration(t, { name: 'list-b' });
    const res = await t.call('GET', '/api/v1/integrations');
    expect(res.status).toBe(200);
    const ids = res.body.integrations.map((i: { id: string }) => i.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(res.text).not.toContain('whsec_');
    expect(res.text).not.toContain(a.secret);
    for (const i of res.body.integrations) expect(Object.keys(i).sort()).toEqual(INTEGRATION_FIELDS);
  });

  it('rotate returns a new secret and previousExpiresAt = now + 24 h; rotating again moves the overlap', async () => {
    const a = await createIntegration(t, { name: 'rotate-me' });
    const now = t.service.ctx.clock.now();
    const first = await t.call('POST', `/api/v1/integrations/${a.id}/rotate`);
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(first.body.secret).not.toBe(a.secret);
    expect(first.body.integration.id).toBe(a.id);
    expect(first.body.integration.previousExpiresAt).toBeGreaterThanOrEqual(now + DAY);
    expect(first.body.integration.previousExpiresAt).toBeLessThan(now + DAY + 60_000);
    const second = await t.call('POST', `/api/v1/integrations/${a.id}/rotate`);
    expect(second.body.secret).not.toBe(first.body.secret);
    expect(second.body.integration.previousExpiresAt).toBeGreaterThanOrEqual(first.body.integration.previousExpiresAt);
  });

  it('rotate: 404 for an unknown or a revoked integration', async () => {
    expect((await t.call('POST', '/api/v1/integrations/int_000000000000000000000000/rotate')).status).toBe(404);
    const a = await createIntegration(t, { name: 'revoked-then-rotated' });
    await t.call('DELETE', `/api/v1/integrations/${a.id}`);
    expect((await t.call('POST', `/api/v1/integrations/${a.id}/rotate`)).status).toBe(404);
  });

  it('revoke: { ok: true } and revokedAt set (overlap cleared); again or unknown is 404', async () => {
    const a = await createIntegration(t, { name: 'revoke-me' });
    await t.call('POST', `/api/v1/integrations/${a.id}/rotate`);
    const res = await t.call('DELETE', `/api/v1/integrations/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const row = (await t.call('GET', '/api/v1/integrations')).body.integrations.find((i: { id: string }) => i.id === a.id);
    expect(row.revokedAt).toBeTypeOf('number');
    expect(row.previousExpiresAt).toBeNull();
    expect((await t.call('DELETE', `/api/v1/integrations/${a.id}`)).status).toBe(404);
    expect((await t.call('DELETE', '/api/v1/integrations/int_nope')).status).toBe(404);
  });
});

describe('access and audit', () => {
  it('operator only: viewer and approver tokens get 403, no credential 401', async () => {
    const a = await createIntegration(t, { name: 'role-target' });
    for (const role of ['viewer', 'approver'] as const) {
      const token = await tokenFor(role);
      expect((await t.call('GET', '/api/v1/integrations', undefined, { token })).status).toBe(403);
      expect((await t.call('POST', '/api/v1/integrations', { name: 'nope' }, { token })).status).toBe(403);
      expect((await t.call('POST', `/api/v1/integrations/${a.id}/rotate`, undefined, { token })).status).toBe(403);
      expect((await t.call('DELETE', `/api/v1/integrations/${a.id}`, undefined, { token })).status).toBe(403);
    }
    expect((await t.call('GET', '/api/v1/integrations', undefined, { token: null })).status).toBe(401);
    const operator = await tokenFor('operator');
    const made = await t.call('POST', '/api/v1/integrations', { name: 'by-token' }, { token: operator });
    expect(made.status).toBe(201);
    expect(made.body.integration.createdBy).toMatch(/^token:operator-/);
  });

  it('create, rotate, revoke are audited: target is the name, detail holds the id, never the secret', async () => {
    const a = await createIntegration(t, { name: 'Audited partner', events: ['seller.responded'] });
    const rotated = await t.call('POST', `/api/v1/integrations/${a.id}/rotate`);
    await t.call('DELETE', `/api/v1/integrations/${a.id}`);
    const res = await t.call('GET', '/api/v1/audit-events?type=integration');
    expect(res.status).toBe(200);
    const mine = res.body.events.filter((ev: { detail: { id?: string } | null }) => ev.detail?.id === a.id);
    expect(mine.map((ev: { action: string }) => ev.action)).toEqual(['integration.revoked', 'integration.rotated', 'integration.created']);
    for (const ev of mine) expect(ev).toMatchObject({ target: 'Audited partner', actor: 'api', actorKind: 'workspace' });
    expect(res.text).not.toContain(a.secret);
    expect(res.text).not.toContain(rotated.body.secret);
  });

  it('secrets are sealed at rest (AES-256-GCM), not stored in the clear', async () => {
    const a = await createIntegration(t, { name: 'sealed' });
    const { rows } = await t.service.ctx.db.query('SELECT * FROM integrations WHERE id = $1', [a.id]);
    expect(rows[0].secret_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(rows[0])).not.toContain(a.secret);
    expect(JSON.stringify(rows[0])).not.toContain(a.secret.slice(6));
  });

  it('a secret sealed under another SECRET_KEY verifies nothing: 401, not an error (rotate to replace it)', async () => {
    const a = await createIntegration(t, { name: 'key change', events: ['*'] });
    const other = await startChannelsService({}, { database: t.database, env: { SECRET_KEY: 'a-different-secret-key' } });
    try {
      const res = await signed(other, '/api/v1/webhooks/events', a, { orderId: 'ord_x', event: 'ping' });
      expect(res.status).toBe(401);
      const rotated = await other.call('POST', `/api/v1/integrations/${a.id}/rotate`);
      expect(rotated.status).toBe(200);
      const fresh = await signed(other, '/api/v1/webhooks/events', { ...a, secret: rotated.body.secret }, { orderId: 'ord_x', event: 'ping' });
      expect(fresh.status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

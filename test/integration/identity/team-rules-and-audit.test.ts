// Rules that need special set-ups: the last active operator without a workspace password, audit that never
// blocks, 180-day retention, and `npm run admin -- add-person` (team.first_operator).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { createTestDatabase } from '../../support/test-db.js';
import { createIdentityDeps, type IdentityDeps } from '../../../src/auth/identity-deps.js';
import { addPerson, updateTeamMember } from '../../../src/auth/team-service.js';
import { createApiToken } from '../../../src/auth/api-token-service.js';
import { writeAuditEvent, purgeAuditEvents, listAuditEvents, AUDIT_RETENTION_MS } from '../../../src/auth/audit-log.js';
import type { Principal } from '../../../src/auth/principal.js';
import { createLogger } from '../../../src/logging/logger.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

function deps(overrides: Partial<IdentityDeps> = {}): IdentityDeps {
  const c = t.service.ctx;
  return {
    ...createIdentityDeps({ db: c.db, clock: c.clock, logger: c.logger, secretKey: c.secretKey, iterations: 1000, workspacePassword: null }),
    ...overrides,
  };
}
const asPerson = (id: string, email: string): Principal => ({ kind: 'person', id, role: 'operator', actor: email, via: 'session', email });
const admin = { actor: 'admin', actorId: null, actorKind: 'admin' };

describe('the last active operator (spec: only in a workspace with no workspace password)', () => {
  it('cannot be demoted or disabled without a workspace password; can once another operator exists', async () => {
    const d = deps();
    // Other tests' people are in this database: start from a team where exactly one operator is active.
    await t.database.db.query("UPDATE people SET enabled = false WHERE role = 'operator'");
    const a = await addPerson(d, admin, { email: 'last-a@example.test', role: 'operator' }, null);
    const b = await addPerson(d, admin, { email: 'last-b@example.test', role: 'viewer' }, null);
    const byB = asPerson(b.person.id, b.person.email);
    await expect(updateTeamMember(d, byB, a.person.id, { role: 'approver' }, null)).rejects.toMatchObject({ kind: 'conflict' });
    await expect(updateTeamMember(d, byB, a.person.id, { enabled: false }, null)).rejects.toMatchObject({ kind: 'conflict' });
    // With a workspace password the rule does not apply.
    const withPassword = deps({ workspacePassword: 'set' });
    const demoted = await updateTeamMember(withPassword, byB, a.person.id, { role: 'approver' }, null);
    expect(demoted.role).toBe('approver');
    await updateTeamMember(withPassword, byB, a.person.id, { role: 'operator' }, null);
    // A second active operator lifts it.
    await updateTeamMember(d, byB, b.person.id, { role: 'operator' }, null);
    expect((await updateTeamMember(d, byB, a.person.id, { enabled: false }, null)).enabled).toBe(false);
  });
});

describe('audit log', () => {
  it('a failed audit write is logged and the action proceeds', async () => {
    const failing = { query: async () => { throw new Error('audit table unavailable'); } };
    const c = t.service.ctx;
    const d = deps({ audit: (e) => writeAuditEvent(failing, c.clock, createLogger('silent'), e) });
    const actor: Principal = { kind: 'workspace', id: null, role: 'operator', actor: 'api', via: 'bearer' };
    const created = await createApiToken(d, actor, { name: 'audit-down', role: 'viewer', expiresIn: '30d' }, null);
    expect(created.secret).toMatch(/^svc_live_/);
    const list = await t.call('GET', '/api/v1/api-tokens');
    expect(list.body.tokens.some((x: any) => x.name === 'audit-down')).toBe(true);
  });

  it('keeps events 180 days (purge cutoff from the service clock)', async () => {
    const c = t.service.ctx;
    const now = c.clock.now();
    await c.db.query("INSERT INTO audit_events (at, action, actor, actor_kind) VALUES ($1, 'auth.sign_in', 'old', 'person'), ($2, 'auth.sign_in', 'recent', 'person')", [
      now - AUDIT_RETENTION_MS - 1000,
      now - AUDIT_RETENTION_MS + 60_000,
    ]);
    expect(await purgeAuditEvents(c.db, now)).toBeGreaterThanOrEqual(1);
    const left = await listAuditEvents(c.db, { limit: 500 });
    expect(left.some((e) => e.actor === 'old')).toBe(false);
    expect(left.some((e) => e.actor === 'recent')).toBe(true);
  });
});

describe('npm run admin -- add-person', () => {
  it('adds the first operator with a temporary password (team.first_operator), later ones as team.user_added', async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oo-admin-'));
    try {
      // A clean environment: the test runner's own variables (Vite sets BASE_URL=/) must not leak in.
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: database.url, DATA_DIR: dataDir, PBKDF2_ITERATIONS: '1000', LOG_LEVEL: 'silent' };
      const run = (...args: string[]) =>
        spawnSync(path.resolve('node_modules/.bin/tsx'), ['src/admin.ts', ...args], { env, encoding: 'utf8', timeout: 60_000 });
      const first = run('add-person', '--email', 'first@example.test', '--role', 'operator');
      expect(first.status, first.stderr).toBe(0);
      const temp = /temporary password: (\S+)/.exec(first.stdout)![1];
      expect(temp).toHaveLength(20);
      const second = run('add-person', '--email', 'second@example.test', '--role', 'viewer', '--name', 'Second');
      expect(second.status, second.stderr).toBe(0);
      const dup = run('add-person', '--email', 'FIRST@example.test', '--role', 'viewer');
      expect(dup.status).toBe(1);
      expect(dup.stderr).toContain('already in the team');
      const bad = run('add-person', '--email', 'x@example.test', '--role', 'boss');
      expect(bad.status).toBe(2);
      const { rows } = await database.db.query('SELECT action, actor, target FROM audit_events ORDER BY id');
      expect(rows).toEqual([
        { action: 'team.first_operator', actor: 'admin', target: 'first@example.test' },
        { action: 'team.user_added', actor: 'admin', target: 'second@example.test' },
      ]);
      const people = await database.db.query('SELECT email, role, password_temporary FROM people ORDER BY email');
      expect(people.rows).toEqual([
        { email: 'first@example.test', role: 'operator', password_temporary: true },
        { email: 'second@example.test', role: 'viewer', password_temporary: true },
      ]);
    } finally {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

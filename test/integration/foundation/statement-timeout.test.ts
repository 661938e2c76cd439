// Security review M3: STATEMENT_TIMEOUT_MS cancels a statement that runs too long (57014), callers get 503 with
// Retry-After (spec "Errors"), and migrations and maintenance transactions are not cut by it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db } from '../../../src/db/db.js';
import { migrate } from '../../../src/db/migrate.js';
import { systemClock } from '../../../src/platform/clock.js';
import { toErrorResponse } from '../../../src/transport/http-errors.js';
import { loadConfig } from '../../../src/config/config.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';
import { startTestService, type TestService } from '../../support/test-service.js';

let database: TestDatabase;
const pools: Db[] = [];
const dirs: string[] = [];
const pool = (statementTimeoutMs?: number) => {
  const db = new Db(database.url, 2, { statementTimeoutMs });
  pools.push(db);
  return db;
};
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const db of pools) await db.close().catch(() => undefined);
  await database?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('STATEMENT_TIMEOUT_MS (default 5000, 0 = none)', () => {
  it('the environment variable defaults to 5000 ms, accepts 0 and refuses a negative value', () => {
    expect(loadConfig({}).env.STATEMENT_TIMEOUT_MS).toBe(5000);
    expect(loadConfig({ STATEMENT_TIMEOUT_MS: '0' }).env.STATEMENT_TIMEOUT_MS).toBe(0);
    expect(loadConfig({ STATEMENT_TIMEOUT_MS: '250' }).env.STATEMENT_TIMEOUT_MS).toBe(250);
    expect(() => loadConfig({ STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/STATEMENT_TIMEOUT_MS/);
  });

  it('every pooled connection carries the timeout from its first statement; 0 sets none', async () => {
    expect((await pool(100).query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('100ms');
    expect((await pool(0).query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
    expect((await pool().query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
  });

  it('a statement running longer than the timeout is cancelled with SQLSTATE 57014 and maps to 503 with Retry-After', async () => {
    const db = pool(100);
    const started = Date.now();
    const err = await db.query('SELECT pg_sleep(1)').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(900);
    expect(toErrorResponse(err)).toEqual({
      status: 503,
      body: { error: 'Service temporarily unavailable' },
      headers: { 'Retry-After': '1' },
      internal: false,
    });
    // The connection stays usable.
    expect((await db.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
  });

  it('migrations run without the timeout, and the connection gets it back afterwards', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-slow-migration-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, '9001_slow_migration.sql'), 'SELECT pg_sleep(0.4);\nCREATE TABLE slow_migration_done (id int);\n');
    const db = pool(100);
    expect(await migrate(db, systemClock, dir)).toEqual([9001]);
    expect((await db.query("SELECT to_regclass('slow_migration_done')::text AS t")).rows[0].t).toBe('slow_migration_done');
    expect((await db.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('100ms');
  });

  it('maintenanceTx (long purges) runs without the timeout; tx keeps it', async () => {
    const db = pool(100);
    await expect(db.maintenanceTx((c) => c.query('SELECT pg_sleep(0.3)'))).resolves.toBeTruthy();
    await expect(db.tx((c) => c.query('SELECT pg_sleep(0.3)'))).rejects.toMatchObject({ code: '57014' });
  });
});

describe('over HTTP', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ env: { STATEMENT_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a request whose statement outlives STATEMENT_TIMEOUT_MS gets 503 { error } with Retry-After, not 500', async () => {
    // Another session holds a lock the list query must wait for; the service's statement is cancelled after 1 s.
    const blocker = new pg.Client({ connectionString: t.database.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const res = await t.call('GET', '/api/v1/orders');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Service temporarily unavailable' });
      expect(res.headers.get('retry-after')).toBe('1');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
    expect((await t.call('GET', '/api/v1/orders')).status).toBe(200);
  });
});

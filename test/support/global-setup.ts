// Integration globalSetup: one PostgreSQL for the run (server from TEST_DATABASE_URL, else embedded)
// and a migrated template database that each test file clones.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { Db } from '../../src/db/db.js';
import { migrate } from '../../src/db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres.js';
import { systemClock } from '../../src/platform/clock.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    pgKind: 'server' | 'embedded';
    /** Prefix of every database this run creates, so teardown drops only its own. */
    pgRunPrefix: string;
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let embedded: EmbeddedDatabase | null = null;
  let tmp: string | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'oo-test-pg-'));
    embedded = await startEmbeddedPostgres({
      dataDir: tmp,
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '400' },
    });
    adminUrl = embedded.url;
  }
  const runId = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const runPrefix = `oo_t_${runId}_`;
  const template = `oo_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const db = new Db(withDatabase(adminUrl, template), 2);
  await migrate(db, systemClock);
  await db.close();
  await admin.end();

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);
  project.provide('pgKind', embedded ? 'embedded' : 'server');
  project.provide('pgRunPrefix', runPrefix);

  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const { rows } = await c.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $2) OR datname = $1',
      [template, runPrefix],
    );
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`).catch(() => undefined);
    await c.end();
    if (embedded) await embedded.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  };
}

// A fresh migrated database per test file, cloned from the run's template (CREATE DATABASE … TEMPLATE).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { Db } from '../../src/db/db.js';

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
  drop(): Promise<void>;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs one statement on the test server's maintenance database (CREATE / DROP DATABASE). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${inject('pgRunPrefix')}${randomBytes(5).toString('hex')}`;
  // Concurrent clones of one template can collide on its lock; retry briefly.
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
      break;
    } catch (err) {
      if (attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
  const url = databaseUrl(inject('pgAdminUrl'), name);
  const db = new Db(url, 5);
  return {
    db,
    url,
    name,
    drop: async () => {
      await db.close().catch(() => undefined);
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

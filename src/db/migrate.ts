// Applies numbered SQL migrations once, in order, in one transaction under an advisory lock.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Db } from './db.js';
import type { Clock } from '../platform/clock.js';

export const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Advisory lock key shared by every node that migrates the same database. */
const MIGRATION_LOCK = 7_342_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Lists `NNNN_name.sql` files in version order; a duplicate number is a programming error. */
export function listMigrations(dir = migrationsDir): Migration[] {
  const migrations = readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f, sql: readFileSync(path.join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (i > 0 && migrations[i - 1].version === m.version) throw new Error(`duplicate migration number ${m.name}`);
  });
  return migrations;
}

/**
 * Brings the schema up to date. Two processes starting at once serialise on the lock:
 * the second finds every migration applied and does nothing. Returns the versions applied.
 * Runs without the pool's statement timeout: an index build on a big table, or the wait for
 * another node's migration, may take longer, and a cancelled migration would stop the start.
 */
export async function migrate(db: Db, clock: Clock, dir = migrationsDir): Promise<number[]> {
  const migrations = listMigrations(dir);
  return db.maintenanceTx(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        clock.now(),
      ]);
      applied.push(m.version);
    }
    return applied;
  });
}

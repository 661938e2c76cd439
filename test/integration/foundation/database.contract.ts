// Contract every PostgreSQL adapter (embedded, server) meets: migrations, transactions, locks.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Db } from '../../../src/db/db.js';
import { listMigrations, migrate } from '../../../src/db/migrate.js';
import { systemClock } from '../../../src/platform/clock.js';
import { databaseUrl } from '../../support/test-db.js';

/** `adminUrl` resolves to a URL of a server where this suite may create and drop databases. */
export function describeDatabaseContract(name: string, adminUrl: () => Promise<string>): void {
  describe(`database contract: ${name}`, () => {
    async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
      const admin = await adminUrl();
      const dbName = `oo_t_contract_${Math.random().toString(36).slice(2, 10)}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`CREATE DATABASE ${dbName}`);
      await c.end();
      return {
        url: databaseUrl(admin, dbName),
        drop: async () => {
          const d = new pg.Client({ connectionString: admin });
          await d.connect();
          await d.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
          await d.end();
        },
      };
    }

    it('migrations from two processes at once apply each version exactly once (issue Foundation)', async () => {
      const fresh = await freshDatabase();
      const a = new Db(fresh.url, 2);
      const b = new Db(fresh.url, 2);
      try {
        const [ra, rb] = await Promise.all([migrate(a, systemClock), migrate(b, systemClock)]);
        const all = listMigrations().map((m) => m.version);
        // One runner applied everything, the other found nothing to do.
        expect([...ra, ...rb].sort((x, y) => x - y)).toEqual(all);
        expect(Math.min(ra.length, rb.length)).toBe(0);
        const { rows } = await a.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations');
        expect(Number(rows[0].n)).toBe(all.length);
        // Idempotent: a third run applies nothing.
        expect(await migrate(a, systemClock)).toEqual([]);
      } finally {
        await a.close();
        await b.close();
        await fresh.drop();
      }
    });

    it('tx() commits on success and rolls back every write on a throw', async () => {
      const fresh = await freshDatabase();
      const db = new Db(fresh.url, 2);
      try {
        await db.query('CREATE TABLE t (v int)');
        await db.tx(async (c) => void (await c.query('INSERT INTO t VALUES (1)')));
        await expect(
          db.tx(async (c) => {
            await c.query('INSERT INTO t VALUES (2)');
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect((await db.query('SELECT v FROM t ORDER BY v')).rows).toEqual([{ v: 1 }]);
      } finally {
        await db.close();
        await fresh.drop();
      }
    });

    it('FOR UPDATE SKIP LOCKED hands each row to one claimer (the timer sweep relies on it)', async () => {
      const fresh = await freshDatabase();
      const db = new Db(fresh.url, 6);
      try {
        await db.query('CREATE TABLE jobs (id int PRIMARY KEY, taken boolean NOT NULL DEFAULT false)');
        await db.query('INSERT INTO jobs SELECT g FROM generate_series(1, 100) g');
        const claimed: number[] = [];
        await Promise.all(
          Array.from({ length: 5 }, () =>
            db.tx(async (c) => {
              const { rows } = await c.query<{ id: number }>(
                'SELECT id FROM jobs WHERE NOT taken ORDER BY id LIMIT 30 FOR UPDATE SKIP LOCKED',
              );
              await c.query('UPDATE jobs SET taken = true WHERE id = ANY($1)', [rows.map((r) => r.id)]);
              claimed.push(...rows.map((r) => r.id));
            }),
          ),
        );
        expect(new Set(claimed).size).toBe(claimed.length);
      } finally {
        await db.close();
        await fresh.drop();
      }
    });
  });
}

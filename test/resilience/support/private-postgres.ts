// A private embedded PostgreSQL owned by the test (never the machine's shared server): stop it and start it
// again on the same port, so a running service sees an outage and then the same server come back.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from '../../../src/db/embedded-postgres.js';

export interface PrivatePostgres {
  url: string;
  port: number;
  /** Fast shutdown (sessions terminated with 57P01, new connections refused). */
  stop(): Promise<void>;
  /** Starts the same cluster on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oo-resilience-pg-'));
  const port = await freePort();
  let server: EmbeddedDatabase | null = await startEmbeddedPostgres({ dataDir, port });
  const url = server.url;
  return {
    url,
    port,
    stop: async () => {
      const s = server;
      server = null;
      await s?.stop();
    },
    start: async () => {
      if (server) return;
      server = await startEmbeddedPostgres({ dataDir, port });
    },
    close: async () => {
      await server?.stop().catch(() => undefined);
      server = null;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

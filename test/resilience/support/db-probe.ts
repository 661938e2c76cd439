// Reads the service's PostgreSQL from the test, reconnecting (and waiting) across restarts and outages.
import pg from 'pg';

export type DbProbe = <R = any>(sql: string, params?: unknown[]) => Promise<R[]>;

/**
 * A query function over a fresh connection per call, retried until `patienceMs` while the
 * database is unreachable (the service restarting its embedded server, a planned outage).
 * `url` is read on every attempt, so a server that came back on another port is found.
 */
export function dbProbe(url: () => string, patienceMs = 120_000): DbProbe {
  return async <R = any>(sql: string, params: unknown[] = []): Promise<R[]> => {
    const deadline = Date.now() + patienceMs;
    for (;;) {
      let client: pg.Client | null = null;
      try {
        client = new pg.Client({ connectionString: url(), connectionTimeoutMillis: 3_000 });
        client.on('error', () => undefined);
        await client.connect();
        const { rows } = await client.query(sql, params as any[]);
        return rows as R[];
      } catch (err) {
        if (!isConnectionTrouble(err) || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 200));
      } finally {
        await client?.end().catch(() => undefined);
      }
    }
  };
}

/** Errors of reaching the server (not of the SQL): retry those. */
function isConnectionTrouble(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e.code && /^(08|57P0)/.test(e.code)) return true;
  if (e.code && ['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'EPIPE', 'ETIMEDOUT'].includes(e.code)) return true;
  return /terminated|timeout|ENOENT|not running|connect/i.test(e.message ?? '');
}

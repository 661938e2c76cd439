// PostgreSQL access: one pg Pool, a transaction helper, and the Queryable shape steps receive.
import pg from 'pg';

/** Anything that runs a query: the pool or a client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** The database handle shared by the whole process. */
export class Db implements Queryable {
  readonly pool: pg.Pool;

  constructor(readonly url: string, poolSize = 10) {
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
    // An idle client losing its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  query<R extends pg.QueryResultRow = any>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, params as any[]);
  }

  /** Runs `fn` inside BEGIN/COMMIT on one client; rolls back on any throw. */
  async tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out client whose server goes away between two queries emits 'error'; unheard, that would
    // crash the process. The next query on it fails instead, and the release below discards it.
    let broken: Error | null = null;
    const onError = (err: Error) => void (broken = err);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken ?? undefined);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

// PostgreSQL access: one pg Pool with an optional statement timeout, transaction helpers, and the Queryable shape steps receive.
import pg from 'pg';

/** A row as pg returns it: its columns are pg's untyped values until the query names its row type (`query<Row>`). */
export type DbRow = pg.QueryResultRow;

/** Anything that runs a query: the pool or a client inside a transaction. */
export interface Queryable {
  query<R extends DbRow = DbRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface DbOptions {
  /**
   * PostgreSQL `statement_timeout` of every pooled connection, in ms: a statement running longer
   * is cancelled (SQLSTATE 57014), so no request can keep the server busy without bound.
   * 0 or absent: the service sets none (the server's own setting applies). See `maintenanceTx`.
   */
  statementTimeoutMs?: number;
}

/** The database handle shared by the whole process. */
export class Db implements Queryable {
  readonly pool: pg.Pool;

  constructor(readonly url: string, poolSize = 10, options: DbOptions = {}) {
    const timeout = options.statementTimeoutMs ?? 0;
    this.pool = new pg.Pool({
      connectionString: url,
      max: poolSize,
      connectionTimeoutMillis: 5_000,
      // Sent in the startup message, so it holds from the connection's first statement on.
      ...(timeout > 0 ? { statement_timeout: timeout } : {}),
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    // Nor a checked-out one: pg emits 'error' on a client whose server goes away even while no query
    // and no checkout listens (a PostgreSQL stop: 57P01, then the socket's end), and an unheard 'error'
    // event crashes the process (node-postgres #2762). The next query on that client fails instead, and
    // the pool discards a client that is no longer queryable when it is released.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  query<R extends DbRow = DbRow>(text: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, params);
  }

  /** Runs `fn` inside BEGIN/COMMIT on one client; rolls back on any throw. */
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.run(fn, 'BEGIN');
  }

  /**
   * `tx` without the statement timeout, for work that may legitimately run long: migrations (an
   * index build on a big table, the wait for another node's migration lock) and retention purges.
   * `SET LOCAL` ends with the transaction, so the connection returns to the pool with its timeout.
   */
  maintenanceTx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.run(fn, 'BEGIN; SET LOCAL statement_timeout = 0');
  }

  /**
   * Runs `fn`'s reads in a read-only transaction that sees one snapshot throughout (REPEATABLE READ): several
   * statements that must agree with one another, as one statement's would (a commit between them is seen by none).
   */
  snapshot<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.run(fn, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  }

  /** `fn` between `begin` (the statement opening the transaction) and COMMIT, on one client; ROLLBACK on any throw. */
  private async run<T>(fn: (client: pg.PoolClient) => Promise<T>, begin: string): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query(begin);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

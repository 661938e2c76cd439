// A named statement whose result columns changed under it (a migration by another node): retry on a fresh connection.

/**
 * PostgreSQL refuses to run a prepared statement whose result row type changed since it was
 * prepared ("cached plan must not change result type", SQLSTATE 0A000): a `SELECT *` named on
 * this connection before another node's migration added a column. It is not the step's fault,
 * so it is never recorded as a step failure: the command is rolled back, the connection (with
 * its prepared statements) discarded, and the command run again on another connection.
 */
export class StalePreparedPlan extends Error {
  constructor(override readonly cause: unknown) {
    super('a prepared statement went stale after a schema change; retrying on a fresh connection');
    this.name = 'StalePreparedPlan';
  }
}

/** True for PostgreSQL's "cached plan must not change result type". */
export function isStalePlanError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return !!e && e.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change result type');
}

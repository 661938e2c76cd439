// pg_stat_statements for the bench's profile: where the database time of a phase goes (when the server has it).
import type pg from 'pg';

export interface StatementStat {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  rows: number;
}

/** Creates the extension in the bench database; false when the server does not preload it. */
export async function enableStatementStats(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT count(*) FROM pg_stat_statements');
    return true;
  } catch {
    return false;
  }
}

export async function resetStatementStats(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT pg_stat_statements_reset()');
}

/** The statements of this database by total execution time, most expensive first. */
export async function topStatements(pool: pg.Pool, limit = 25): Promise<StatementStat[]> {
  const { rows } = await pool.query(
    `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, total_exec_time AS total, mean_exec_time AS mean, rows
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    query: String(r.query).slice(0, 240),
    calls: Number(r.calls),
    totalMs: Math.round(Number(r.total) * 10) / 10,
    meanMs: Math.round(Number(r.mean) * 1000) / 1000,
    rows: Number(r.rows),
  }));
}

/** Statements executed in this database since the last reset (every round trip the service made, BEGIN and COMMIT included). */
export async function statementCalls(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query(
    `SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return Number(rows[0].n);
}

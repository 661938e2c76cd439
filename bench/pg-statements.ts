// pg_stat_statements for the bench's profile: where the database time of a phase goes (when the server has it).
import type pg from 'pg';

export interface StatementStat {
  query: string;
  calls: number;
  /** Execution time, ms (planning not included). */
  totalMs: number;
  meanMs: number;
  /** Planning time, ms (0 when the server does not track it). */
  planMs: number;
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
    `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, total_exec_time AS total, mean_exec_time AS mean,
            total_plan_time AS plan, rows
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time + total_plan_time DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    query: String(r.query).slice(0, 240),
    calls: Number(r.calls),
    totalMs: Math.round(Number(r.total) * 10) / 10,
    meanMs: Math.round(Number(r.mean) * 1000) / 1000,
    planMs: Math.round(Number(r.plan) * 10) / 10,
    rows: Number(r.rows),
  }));
}

export interface StatementTotals {
  /** Statements executed (every statement the service sent, BEGIN and COMMIT included). */
  calls: number;
  execMs: number;
  planMs: number;
}

/** Totals over this database's statements since the last reset. */
export async function statementTotals(pool: pg.Pool): Promise<StatementTotals> {
  const { rows } = await pool.query(
    `SELECT coalesce(sum(calls), 0) AS calls, coalesce(sum(total_exec_time), 0) AS exec, coalesce(sum(total_plan_time), 0) AS plan
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return { calls: Number(rows[0].calls), execMs: Number(rows[0].exec), planMs: Number(rows[0].plan) };
}

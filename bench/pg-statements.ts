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
  /** Statements the service sent (BEGIN and COMMIT included; not PostgreSQL's own foreign-key checks). */
  calls: number;
  /**
   * Foreign-key checks PostgreSQL ran itself (`SELECT 1 FROM ONLY … FOR KEY SHARE`), one per row written that
   * references another. pg_stat_statements (track = top) sees them only when they run at COMMIT (a deferred
   * constraint, migration 0025), not inside a statement, so they are counted apart: the service never sent them.
   */
  foreignKeyChecks: number;
  execMs: number;
  planMs: number;
}

/** The text of PostgreSQL's referential-integrity queries (ri_triggers.c), as pg_stat_statements normalises it. */
const FOREIGN_KEY_CHECK = String.raw`^SELECT 1 FROM ONLY "[^"]+"\."[^"]+" x WHERE .* FOR KEY SHARE OF x$`;

/** Totals over this database's statements since the last reset. */
export async function statementTotals(pool: pg.Pool): Promise<StatementTotals> {
  const { rows } = await pool.query(
    `SELECT coalesce(sum(calls) FILTER (WHERE NOT fk), 0) AS calls, coalesce(sum(calls) FILTER (WHERE fk), 0) AS fk_calls,
            coalesce(sum(total_exec_time), 0) AS exec, coalesce(sum(total_plan_time), 0) AS plan
       FROM (SELECT *, query ~ $1 AS fk FROM pg_stat_statements
              WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())) s`,
    [FOREIGN_KEY_CHECK],
  );
  return { calls: Number(rows[0].calls), foreignKeyChecks: Number(rows[0].fk_calls), execMs: Number(rows[0].exec), planMs: Number(rows[0].plan) };
}

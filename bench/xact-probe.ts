// Counts writing transactions: the delta of pg_current_xact_id() between two probes (read-only ones get no id).
import type pg from 'pg';

/** The cluster's next transaction id; the probe's own transaction takes one (subtract it, see `writingSince`). */
export async function currentXid(pool: pg.Pool): Promise<bigint> {
  const { rows } = await pool.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  return BigInt(rows[0].xid);
}

/** Writing transactions committed or aborted anywhere on the cluster since `before`, excluding this probe. */
export async function writingSince(pool: pg.Pool, before: bigint): Promise<number> {
  return Number((await currentXid(pool)) - before - 1n);
}

/**
 * Transaction ids other clients consume while the bench is idle (other databases on a shared
 * server): measured over `ms` before a run so the report can say how noisy the count is.
 */
export async function backgroundXidRate(pool: pg.Pool, ms = 1_000): Promise<number> {
  const before = await currentXid(pool);
  await new Promise((r) => setTimeout(r, ms));
  return ((await writingSince(pool, before)) * 1000) / ms;
}

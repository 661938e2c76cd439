// PostgreSQL bytes the service's tables take (table incl. TOAST, and their indexes), to report storage per order.
import type pg from 'pg';

export interface RelationBytes {
  table: string;
  /** pg_table_size: heap, TOAST and the free-space and visibility maps. */
  tableBytes: number;
  /** pg_indexes_size: every index of the table (and of its TOAST table). */
  indexBytes: number;
}

export interface DatabaseBytes {
  tableBytes: number;
  indexBytes: number;
  relations: RelationBytes[];
}

/** Sizes of every ordinary table in the public schema (the service's tables; extensions add views only). */
export async function databaseBytes(pool: pg.Pool): Promise<DatabaseBytes> {
  const { rows } = await pool.query<{ name: string; table_bytes: string; index_bytes: string }>(
    `SELECT c.relname AS name, pg_table_size(c.oid) AS table_bytes, pg_indexes_size(c.oid) AS index_bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'm')`,
  );
  const relations = rows.map((r) => ({ table: r.name, tableBytes: Number(r.table_bytes), indexBytes: Number(r.index_bytes) }));
  return {
    tableBytes: relations.reduce((s, r) => s + r.tableBytes, 0),
    indexBytes: relations.reduce((s, r) => s + r.indexBytes, 0),
    relations,
  };
}

export interface BytesGrowth {
  /** Table + index bytes the database grew by, per unit (e.g. per order). */
  perUnit: number;
  tablePerUnit: number;
  indexPerUnit: number;
  /** The tables that grew, largest growth first, per unit. */
  byTable: { table: string; tablePerUnit: number; indexPerUnit: number }[];
}

/**
 * Growth between two readings divided by `units`. Files grow by whole 8 KB pages and keep the
 * space of dead row versions until a vacuum lets it be reused, so this is what the run cost on
 * disk, not the size of the live rows alone.
 */
export function bytesGrowth(before: DatabaseBytes, after: DatabaseBytes, units: number): BytesGrowth {
  const n = Math.max(1, units);
  const was = new Map(before.relations.map((r) => [r.table, r]));
  const byTable = after.relations
    .map((r) => ({
      table: r.table,
      tablePerUnit: (r.tableBytes - (was.get(r.table)?.tableBytes ?? 0)) / n,
      indexPerUnit: (r.indexBytes - (was.get(r.table)?.indexBytes ?? 0)) / n,
    }))
    .filter((r) => r.tablePerUnit !== 0 || r.indexPerUnit !== 0)
    .sort((a, b) => b.tablePerUnit + b.indexPerUnit - (a.tablePerUnit + a.indexPerUnit));
  const tablePerUnit = (after.tableBytes - before.tableBytes) / n;
  const indexPerUnit = (after.indexBytes - before.indexBytes) / n;
  return { perUnit: tablePerUnit + indexPerUnit, tablePerUnit, indexPerUnit, byTable };
}

/**
 * Rewrites every table and index of the database compactly (`VACUUM FULL`: live rows only, at
 * each table's fillfactor, indexes rebuilt), so that a reading after it is what the live rows
 * take. Takes each table's exclusive lock in turn: only for a database the service leaves idle.
 */
export async function compactDatabase(pool: pg.Pool): Promise<void> {
  await pool.query('VACUUM FULL');
}

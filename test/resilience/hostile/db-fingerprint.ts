// A fingerprint of everything in the database (row count and content hash per table), to prove a request changed nothing.
import type { Queryable } from '../../../src/db/db.js';

export type Fingerprint = Map<string, string>;

let tableCache: string[] | null = null;

/**
 * Tables a background worker derives from what runs already wrote (the flow stats of contract 17): they move on
 * their own, seconds after the orders that fed them, whatever a request answered, so they are not a request's change.
 */
const DERIVED_TABLES = /^flow_stats_/;

/** Every base table of the public schema but the derived ones. */
async function tables(db: Queryable): Promise<string[]> {
  tableCache ??= (
    await db.query<{ t: string }>("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1")
  ).rows
    .map((r) => r.t)
    .filter((t) => !DERIVED_TABLES.test(t));
  return tableCache;
}

/**
 * Columns that record authenticated use, not state: an authenticated request that is then refused
 * (a 409 for an event nobody waits for) still counts as a use of its credential.
 */
const USAGE_COLUMNS: Record<string, string[]> = {
  integrations: ['last_used_at'],
  api_tokens: ['last_used_at'],
  sessions: ['last_used_at'],
};

/** Per table: `<rows>:<md5 over the sorted md5 of each row>` (usage columns left out). */
export async function dbFingerprint(db: Queryable): Promise<Fingerprint> {
  const names = await tables(db);
  const row = (t: string) => (USAGE_COLUMNS[t] ? `(to_jsonb(x) - ARRAY[${USAGE_COLUMNS[t].map((c) => `'${c}'`).join(', ')}])::text` : 'x::text');
  const sql = names
    .map((t) => `SELECT '${t}' AS t, count(*)::int AS n, md5(coalesce(string_agg(md5(${row(t)}), '' ORDER BY md5(${row(t)})), '')) AS h FROM "${t}" x`)
    .join(' UNION ALL ');
  const { rows } = await db.query<{ t: string; n: number; h: string }>(sql);
  return new Map(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
}

/** Tables whose content differs between two fingerprints. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return [...after.keys()].filter((t) => before.get(t) !== after.get(t));
}

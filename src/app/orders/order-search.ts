// The `q` search over order id, title, customer id, contact email and external id, backed by an index.
import type { Queryable } from '../../db/db.js';

/**
 * The five searched fields joined by a unit separator (so a match cannot span two fields),
 * lower-cased. Must stay identical to the indexed expression in migration 0006.
 */
export const SEARCH_EXPRESSION =
  "lower(id || E'\\x1f' || coalesce(title, '') || E'\\x1f' || coalesce(customer_id, '') || E'\\x1f' || coalesce(contact_email, '') || E'\\x1f' || coalesce(external_id, ''))";

/** The fields matched one by one when pg_trgm is missing (each has a text_pattern_ops index). */
export const PREFIX_FIELDS = ['id', 'title', 'customer_id', 'contact_email', 'external_id'] as const;

/**
 * `substring`: pg_trgm's GIN index serves `LIKE '%q%'` over the joined fields.
 * `prefix`: without pg_trgm, each field matches when it starts with `q` (btree indexes).
 */
export type SearchMode = 'substring' | 'prefix';

/** Reads which index migration 0006 could build on this database. */
export async function detectSearchMode(q: Queryable): Promise<SearchMode> {
  const { rows } = await q.query<{ idx: string | null }>("SELECT to_regclass('orders_search_trgm_idx')::text AS idx");
  return rows[0]?.idx ? 'substring' : 'prefix';
}

/** Escapes LIKE wildcards so `q` matches literally (backslash is the default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The WHERE fragment and its parameter for `q`, numbered from `$n`. */
export function searchCondition(mode: SearchMode, q: string, n: number): { sql: string; param: string } {
  const needle = escapeLike(q.toLowerCase());
  if (mode === 'substring') return { sql: `${SEARCH_EXPRESSION} LIKE $${n}`, param: `%${needle}%` };
  return { sql: `(${PREFIX_FIELDS.map((f) => `lower(${f}) LIKE $${n}`).join(' OR ')})`, param: `${needle}%` };
}

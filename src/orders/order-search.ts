// The `q` search over order id, title, customer id, contact email and external id, backed by an index.
import type { Queryable } from '../db/db.js';

/**
 * The five searched fields joined by a unit separator (so a match cannot span two fields),
 * lower-cased. Must stay identical to the indexed expression in migration 0006.
 */
export const SEARCH_EXPRESSION =
  "lower(id || E'\\x1f' || coalesce(title, '') || E'\\x1f' || coalesce(customer_id, '') || E'\\x1f' || coalesce(contact_email, '') || E'\\x1f' || coalesce(external_id, ''))";

/** The fields matched one by one in prefix mode (each has a text_pattern_ops index: migrations 0006 / 0008). */
export const PREFIX_FIELDS = ['id', 'title', 'customer_id', 'contact_email', 'external_id'] as const;

/**
 * `substring`: pg_trgm's GIN index serves `LIKE '%q%'` over the joined fields.
 * `prefix`: each field matches when it starts with `q` (btree indexes): every needle without
 * pg_trgm, and needles without a trigram (searchModeFor) with it.
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

/**
 * Three ASCII letters or digits in a row: the least a `%q%` needle needs for pg_trgm to take a
 * trigram from it (it splits on anything else, and on non-ASCII letters under the C locale).
 * Without one, the trigram index can only scan itself whole and recheck every order (`q=a`,
 * `q=ex`, `q=___`, `q=a-1`), a cost that grows with the table (security review M3).
 */
const TRIGRAM_RUN = /[a-z0-9]{3}/i;

/**
 * The mode one needle is searched in: substring only when the database has the trigram index
 * and the needle has a trigram for it; any other needle is a prefix search, which the btree
 * prefix indexes (migration 0008) serve at a cost bounded by the page, not by the table.
 */
export function searchModeFor(mode: SearchMode, q: string): SearchMode {
  return mode === 'substring' && TRIGRAM_RUN.test(q) ? 'substring' : 'prefix';
}

/** The WHERE fragment and its parameter for `q`, numbered from `$n` (short needles: see searchModeFor). */
export function searchCondition(mode: SearchMode, q: string, n: number): { sql: string; param: string } {
  const needle = escapeLike(q.toLowerCase());
  if (searchModeFor(mode, q) === 'substring') return { sql: `${SEARCH_EXPRESSION} LIKE $${n}`, param: `%${needle}%` };
  return { sql: `(${PREFIX_FIELDS.map((f) => `lower(${f}) LIKE $${n}`).join(' OR ')})`, param: `${needle}%` };
}

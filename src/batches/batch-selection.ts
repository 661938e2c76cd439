// The orders a batch acts on (contract 16): the listed ids or the filter's matches, counted for a dry run or fixed at start.
import type { Queryable } from '../db/db.js';
import { ValidationError } from '../domain/errors.js';
import { filterConditions, normaliseFilter, type OrderFilter } from '../orders/order-filter.js';
import type { SearchMode } from '../orders/order-search.js';

/** Contract 16: a filter may match at most this many orders, a list name at most ORDER_IDS_MAX. */
export const FILTER_MATCHES_MAX = 100_000;
export const ORDER_IDS_MAX = 10_000;
/** A dry run's sample: the first order ids. */
export const SAMPLE_SIZE = 20;

export type BatchSelection = { orderIds: string[] } | { filter: OrderFilter };

const tooMany = () =>
  new ValidationError(
    [{ path: 'filter', message: `matches more than ${FILTER_MATCHES_MAX.toLocaleString('en')} orders (a batch takes at most ${FILTER_MATCHES_MAX.toLocaleString('en')}): narrow it` }],
    `The filter matches more than ${FILTER_MATCHES_MAX.toLocaleString('en')} orders`,
  );

/** The ids once each, in the order given (an order is processed at most once per batch). */
export function distinctIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/** The matches of a filter in the order list's order (newest first), at most one past the cap (so too many is seen). */
function matchesSql(filter: OrderFilter, mode: SearchMode, params: unknown[]): string {
  const where = filterConditions(normaliseFilter(filter), mode, params);
  params.push(FILTER_MATCHES_MAX + 1);
  return `SELECT id, created_at FROM orders ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY created_at DESC, id DESC LIMIT $${params.length}`;
}

/** A dry run: how many orders the batch would take and the first 20 of them; 400 past the cap. Reads only. */
export async function countSelection(q: Queryable, mode: SearchMode, selection: BatchSelection): Promise<{ count: number; sample: string[] }> {
  if ('orderIds' in selection) {
    const ids = distinctIds(selection.orderIds);
    return { count: ids.length, sample: ids.slice(0, SAMPLE_SIZE) };
  }
  const params: unknown[] = [];
  const matches = matchesSql(selection.filter, mode, params);
  params.push(SAMPLE_SIZE);
  const { rows } = await q.query<{ count: number; sample: string[] }>(
    `WITH m AS MATERIALIZED (${matches})
     SELECT (SELECT count(*)::int FROM m) AS count,
            (SELECT coalesce(json_agg(s.id ORDER BY s.created_at DESC, s.id DESC), '[]'::json)
               FROM (SELECT id, created_at FROM m ORDER BY created_at DESC, id DESC LIMIT $${params.length}) s) AS sample`,
    params,
  );
  const { count, sample } = rows[0];
  if (count > FILTER_MATCHES_MAX) throw tooMany();
  return { count, sample };
}

/**
 * Writes the batch's items (its orders, fixed now, numbered in processing order) inside the start's
 * transaction and answers how many; past the cap it throws, so the transaction writes nothing.
 */
export async function fillSelection(q: Queryable, mode: SearchMode, batchId: string, selection: BatchSelection): Promise<number> {
  if ('orderIds' in selection) {
    const ids = distinctIds(selection.orderIds);
    await q.query(
      `INSERT INTO batch_items (batch_id, seq, order_id)
       SELECT $1, ord::int, id FROM unnest($2::text[]) WITH ORDINALITY AS u(id, ord)`,
      [batchId, ids],
    );
    return ids.length;
  }
  const params: unknown[] = [batchId];
  const matches = matchesSql(selection.filter, mode, params);
  const { rowCount } = await q.query(
    `INSERT INTO batch_items (batch_id, seq, order_id)
     SELECT $1, row_number() OVER (ORDER BY m.created_at DESC, m.id DESC), m.id FROM (${matches}) m`,
    params,
  );
  const count = rowCount ?? 0;
  if (count > FILTER_MATCHES_MAX) throw tooMany();
  return count;
}

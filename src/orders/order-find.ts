// find_orders: every order matching filters, counted and totalled in USD, with the newest rows (contract section 11).
import type { Queryable } from '../db/db.js';
import { MINOR_DIGITS } from '../domain/money.js';
import { LIST_COLUMNS, toListRow, type ListDbRow, type OrderListRow } from './order-list.js';
import type { SearchMode } from './order-search.js';
import { filterConditions, normaliseFilter, type OrderFilter } from './order-filter.js';

/** Contract 16's filter keys (src/orders/order-filter.ts) plus the total in USD. */
export interface FindOrdersFilters extends OrderFilter {
  /** The order total converted to USD at the order's own rate, bounds inclusive. */
  minTotalUsd?: number;
  maxTotalUsd?: number;
  limit: number;
}

export interface FoundOrders {
  /** Every match, not only the rows answered. */
  count: number;
  /** Sum of every match's total in USD, rounded to cents. */
  totalUsd: number;
  orders: OrderListRow[];
}

/** The order total in USD: minor units to units by the currency's digits, then by the rate fixed at start. */
const USD_TOTAL = `(total_minor::numeric / power(10, CASE upper(currency) ${Object.entries(MINOR_DIGITS)
  .map(([code, digits]) => `WHEN '${code}' THEN ${digits}`)
  .join(' ')} ELSE 2 END) / fx_rate)`;

/** The SQL of one search: window aggregates count and total every match before the LIMIT keeps the newest. */
export function findOrdersSql(filters: FindOrdersFilters, mode: SearchMode): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = filterConditions(normaliseFilter(filters), mode, params);
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (filters.minTotalUsd !== undefined) add((n) => `${USD_TOTAL} >= $${n}`, filters.minTotalUsd);
  if (filters.maxTotalUsd !== undefined) add((n) => `${USD_TOTAL} <= $${n}`, filters.maxTotalUsd);
  params.push(filters.limit);
  const text = `SELECT ${LIST_COLUMNS}, count(*) OVER () AS match_count, sum(${USD_TOTAL}) OVER () AS match_usd
    FROM orders ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY created_at DESC, id DESC LIMIT $${params.length}`;
  return { text, params };
}

export async function findOrders(q: Queryable, mode: SearchMode, filters: FindOrdersFilters): Promise<FoundOrders> {
  const { text, params } = findOrdersSql(filters, mode);
  const { rows } = await q.query<ListDbRow & { match_count: string; match_usd: string | null }>(text, params);
  if (rows.length === 0) {
    // limit is at least 1, so an empty page means nothing matches.
    return { count: 0, totalUsd: 0, orders: [] };
  }
  return {
    count: Number(rows[0].match_count),
    totalUsd: Math.round(Number(rows[0].match_usd) * 100) / 100,
    orders: rows.map(toListRow),
  };
}

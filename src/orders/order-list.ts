// GET /api/v1/orders: newest first by (created_at, id), keyset pages, filters, the spec's "Order list row".
import type { Queryable } from '../db/db.js';
import type { OrderStatus } from '../engine/runtime/run-row.js';
import { fromMinor } from '../domain/money.js';
import { fingerprint } from './idempotency.js';
import { decodeCursor, encodeCursor, type ListPosition } from './list-cursor.js';
import type { SearchMode } from './order-search.js';
import { filterConditions, normaliseFilter, type OrderFilter } from './order-filter.js';

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 200;

/** The list's filters: contract 16's keys (src/orders/order-filter.ts). */
export type OrderListFilters = OrderFilter;

/** Spec "Order list row", exactly these fields; times are epoch ms. */
export interface OrderListRow {
  id: string;
  model: string;
  channel: string;
  externalId: string | null;
  contactEmail: string | null;
  status: OrderStatus;
  title: string | null;
  flowId: string;
  flowVersion: number;
  instanceId: string;
  generation: number;
  customerId: string | null;
  currency: string;
  total: number;
  waitingOn: string[];
  waitingAt: string[];
  waitingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

const COLUMNS = `id, model, channel, external_id, contact_email, status, title, flow_id, flow_version, instance_id, generation,
  customer_id, currency, total_minor, waiting_on, waiting_at, waiting_since, created_at, updated_at`;

/** The list columns of `orders`, for queries that answer list rows. */
export const LIST_COLUMNS = COLUMNS;

/** The LIST_COLUMNS of an `orders` row as pg returns them (bigint columns as text). */
export interface ListDbRow {
  id: string;
  model: string;
  channel: string;
  external_id: string | null;
  contact_email: string | null;
  status: OrderStatus;
  title: string | null;
  flow_id: string;
  flow_version: number;
  instance_id: string;
  generation: number;
  customer_id: string | null;
  currency: string;
  total_minor: string;
  waiting_on: string[] | null;
  waiting_at: string[] | null;
  waiting_since: string | null;
  created_at: string;
  updated_at: string;
}

/** One `orders` row (selected with LIST_COLUMNS) as a list row. */
export function toListRow(r: ListDbRow): OrderListRow {
  return {
    id: r.id,
    model: r.model,
    channel: r.channel,
    externalId: r.external_id,
    contactEmail: r.contact_email,
    status: r.status,
    title: r.title,
    flowId: r.flow_id,
    flowVersion: r.flow_version,
    instanceId: r.instance_id,
    generation: r.generation,
    customerId: r.customer_id,
    currency: r.currency,
    total: fromMinor(Number(r.total_minor), r.currency),
    waitingOn: r.waiting_on ?? [],
    waitingAt: r.waiting_at ?? [],
    waitingSince: r.waiting_since === null ? null : Number(r.waiting_since),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The SQL of one page (exported so a test can EXPLAIN exactly what the route runs). */
export function listSql(filters: OrderListFilters, mode: SearchMode, after: ListPosition | null, limit: number): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const where = filterConditions(filters, mode, params);
  if (after) {
    params.push(after.createdAt, after.id);
    where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit + 1);
  const filtered = `SELECT ${COLUMNS} FROM orders ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  const order = 'ORDER BY created_at DESC, id DESC';
  const page = `${filtered} ${order} LIMIT $${params.length}`;
  // With q, the page is planned on its own inside a fence, LIMIT included: the planner either walks
  // the newest-first index and stops after limit + 1 matches (a common needle), or collects the few
  // matches through the search indexes (a rare one). A LIMIT outside the fence made it read and
  // materialise every match first, a cost that grew with the table (security review M3).
  if (filters.q !== undefined) return { text: `WITH matches AS MATERIALIZED (${page}) SELECT * FROM matches ${order}`, params };
  return { text: page, params };
}

export interface ListOrdersRequest extends OrderListFilters {
  limit?: number;
  cursor?: string;
}

/**
 * One page plus the cursor of the next (null on the last page). Keyset paging never skips or
 * repeats a row: orders created meanwhile sort before the cursor and do not shift later pages.
 */
export async function listOrders(
  q: Queryable,
  key: Buffer,
  mode: SearchMode,
  request: ListOrdersRequest,
): Promise<{ orders: OrderListRow[]; nextCursor: string | null }> {
  const filters = normaliseFilter(request);
  const filterDigest = fingerprint(filters).slice(0, 16);
  const after = request.cursor ? decodeCursor(key, request.cursor, filterDigest) : null;
  const limit = request.limit ?? LIST_LIMIT_DEFAULT;
  const { text, params } = listSql(filters, mode, after, limit);
  const { rows } = await q.query<ListDbRow>(text, params);
  const page = rows.slice(0, limit).map(toListRow);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? encodeCursor(key, { createdAt: last.createdAt, id: last.id }, filterDigest) : null;
  return { orders: page, nextCursor };
}

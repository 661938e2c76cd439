// The order filter shared by the order list, find_orders and batches (contract 16): each key as a WHERE condition.
import { TIMER_KINDS } from '../engine/run/run-timers.js';
import { searchCondition, type SearchMode } from './order-search.js';

/**
 * Contract 16's filter keys. Every key narrows (AND); times are epoch ms and inclusive.
 * `waitingAtNode` is the id of the node where the order is parked (an open approval, event or
 * delay wait, a held step, or a pending retry of the step); `sellerId` and `sku` match the order's lines that
 * were not dropped (a partial acceptance drops a rejecting seller's lines); a line's seller is the
 * one given on the input or the one the flow resolved (pricing, split).
 */
export interface OrderFilter {
  status?: string;
  model?: string;
  channel?: string;
  q?: string;
  flowId?: string;
  flowVersion?: number;
  waitingAtNode?: string;
  sellerId?: string;
  sku?: string;
  createdAfter?: number;
  createdBefore?: number;
}

/** The keys of a filter, in the order their conditions are written (and a cursor's digest reads them). */
export const ORDER_FILTER_KEYS = [
  'status',
  'model',
  'channel',
  'q',
  'flowId',
  'flowVersion',
  'waitingAtNode',
  'sellerId',
  'sku',
  'createdAfter',
  'createdBefore',
] as const satisfies readonly (keyof OrderFilter)[];

/** The filter without absent keys, and a blank `q` (a cleared search box) as no search. */
export function normaliseFilter(filter: OrderFilter): OrderFilter {
  const out: OrderFilter = {};
  for (const key of ORDER_FILTER_KEYS) {
    const value = filter[key];
    if (value === undefined) continue;
    if (key === 'q') {
      const q = String(value).trim();
      if (q) out.q = q;
    } else (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * The WHERE conditions of `filter` over `orders` (unqualified columns), adding their values to
 * `params` ($1 is params[0]). Each condition is served by an index (migrations 0006, 0020):
 * status, model, channel and flow (with version) by their newest-first indexes, the lines' SKU and
 * seller, open waits and pending retries by node through partial indexes, so the planner can either
 * walk the newest orders and stop after a page, or collect a rare key's few orders first.
 */
export function filterConditions(filter: OrderFilter, mode: SearchMode, params: unknown[]): string[] {
  // Returns (contract 18) are runs of their own, not rows of the order list, find_orders or a batch.
  const where: string[] = ['return_of IS NULL'];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.status !== undefined) add((n) => `status = ${n}`, filter.status);
  if (filter.model !== undefined) add((n) => `model = ${n}`, filter.model);
  if (filter.channel !== undefined) add((n) => `channel = ${n}`, filter.channel);
  if (filter.flowId !== undefined) add((n) => `flow_id = ${n}`, filter.flowId);
  if (filter.flowVersion !== undefined) add((n) => `flow_version = ${n}`, filter.flowVersion);
  if (filter.createdAfter !== undefined) add((n) => `created_at >= ${n}`, filter.createdAfter);
  if (filter.createdBefore !== undefined) add((n) => `created_at <= ${n}`, filter.createdBefore);
  if (filter.sku !== undefined) add((n) => `id IN (SELECT l.order_id FROM order_lines l WHERE l.sku = ${n} AND NOT l.dropped)`, filter.sku);
  if (filter.sellerId !== undefined)
    add((n) => `id IN (SELECT l.order_id FROM order_lines l WHERE l.seller_id = ${n} AND NOT l.dropped)`, filter.sellerId);
  if (filter.waitingAtNode !== undefined) {
    params.push(filter.waitingAtNode, TIMER_KINDS.stepRetry);
    const node = `$${params.length - 1}`;
    // Where an order is parked: an open wait at the node, the node's step held, or the node's step waiting for its retry.
    where.push(`id IN (SELECT w.order_id FROM order_waits w WHERE w.status = 'open' AND w.node_id = ${node}
      UNION ALL SELECT h.order_id FROM order_holds h WHERE h.status = 'open' AND h.node_id = ${node}
      UNION ALL SELECT t.order_id FROM timers t WHERE t.kind = $${params.length} AND t.node_id = ${node} AND t.fired_at IS NULL AND t.cancelled_at IS NULL)`);
  }
  if (filter.q !== undefined) {
    const cond = searchCondition(mode, filter.q, params.length + 1);
    params.push(cond.param);
    where.push(cond.sql);
  }
  return where;
}

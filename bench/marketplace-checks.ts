// Exactly-once checks over finished marketplace orders: every order completed, and every order's
// effects (seller orders, payouts, captures, reservations, shipments, notifications, events,
// steps, timers) counted the same as every other's and as one correct order's.
import type pg from 'pg';
import { THIRD_PARTY_SELLERS } from './marketplace-order.js';

/** Rows per order in each effect table (keys like `payouts`, `outbox:order.completed`, `step:payout`). */
export type EffectCounts = Record<string, number>;

export interface MarketplaceCheck {
  orders: number;
  completed: number;
  /** Orders whose effect counts differ from the expected ones, with the difference. */
  duplicates: { orderId: string; key: string; count: number; expected: number }[];
  /** Effect counts of one correct order. */
  expected: EffectCounts;
  /** SKUs whose stock moved differently from what the orders took (empty when right). */
  stock: { sku: string; moved: number; expected: number }[];
  problems: string[];
}

/** What one completed order must have written exactly (the rest must only agree between orders). */
const EXACT: EffectCounts = {
  seller_orders: 3,
  'seller_orders:accepted': 3,
  payouts: THIRD_PARTY_SELLERS.length,
  payment_authorizations: 1,
  'outbox:order.completed': 1,
  'outbox:order.payout_scheduled': 1,
  'step:payout': 1,
  'step:reserve': 1,
  'step:ship': 1,
  'step:capture': 1,
  'timers_fired:wait_returns': 1,
  'waits_received:wait_sellers': THIRD_PARTY_SELLERS.length,
};

/** Per-order counts of every effect, one query per table, for the orders whose external_id starts with `prefix`. */
export async function effectCounts(pool: pg.Pool, prefix: string): Promise<Map<string, EffectCounts>> {
  const counts = new Map<string, EffectCounts>();
  const { rows: orders } = await pool.query<{ id: string }>(`SELECT id FROM orders WHERE external_id LIKE $1`, [`${prefix}%`]);
  for (const o of orders) counts.set(o.id, {});
  const add = (orderId: string, key: string, n: number) => {
    const c = counts.get(orderId);
    if (c) c[key] = (c[key] ?? 0) + n;
  };
  const queries: [string, string][] = [
    ['seller_orders', `SELECT order_id, 'seller_orders' AS k, count(*) AS n FROM seller_orders GROUP BY 1`],
    ['seller_orders:status', `SELECT order_id, 'seller_orders:' || status AS k, count(*) AS n FROM seller_orders GROUP BY 1, 2`],
    ['payouts', `SELECT order_id, 'payouts' AS k, count(*) AS n FROM payouts GROUP BY 1`],
    ['authorizations', `SELECT order_id, 'payment_authorizations' AS k, count(*) AS n FROM payment_authorizations GROUP BY 1`],
    ['authorizations:status', `SELECT order_id, 'payment_authorizations:' || status AS k, count(*) AS n FROM payment_authorizations GROUP BY 1, 2`],
    ['charges', `SELECT order_id, 'payment_charges' AS k, count(*) AS n FROM payment_charges GROUP BY 1`],
    ['reservations', `SELECT order_id, 'stock_reservations:' || status AS k, count(*) AS n FROM stock_reservations GROUP BY 1, 2`],
    ['shipments', `SELECT order_id, 'shipments' AS k, count(*) AS n FROM shipments GROUP BY 1`],
    ['notifications', `SELECT order_id, 'notifications' AS k, count(*) AS n FROM notifications GROUP BY 1`],
    ['outbox', `SELECT order_id, 'outbox:' || event AS k, count(*) AS n FROM outbox GROUP BY 1, 2`],
    ['steps', `SELECT order_id, 'step:' || node_id AS k, count(*) AS n FROM order_timeline WHERE kind = 'node.succeeded' GROUP BY 1, 2`],
    ['timers', `SELECT order_id, 'timers_fired:' || node_id AS k, count(*) AS n FROM timers WHERE fired_at IS NOT NULL AND order_id IS NOT NULL GROUP BY 1, 2`],
    ['waits', `SELECT order_id, 'waits_' || status || ':' || node_id AS k, count(*) AS n FROM order_waits GROUP BY 1, 2`],
  ];
  for (const [, sql] of queries) {
    const { rows } = await pool.query<{ order_id: string; k: string; n: string }>(sql);
    for (const r of rows) add(r.order_id, r.k, Number(r.n));
  }
  return counts;
}

/** The most common value of each key over all orders (what a correct order wrote when most are correct). */
export function modal(all: EffectCounts[]): EffectCounts {
  const tallies = new Map<string, Map<number, number>>();
  for (const c of all)
    for (const [k, n] of Object.entries(c)) {
      const t = tallies.get(k) ?? new Map<number, number>();
      t.set(n, (t.get(n) ?? 0) + 1);
      tallies.set(k, t);
    }
  const out: EffectCounts = {};
  for (const [k, t] of tallies) {
    const [[best]] = [...t.entries()].sort((a, b) => b[1] - a[1]);
    // A key most orders lack is expected to be absent.
    const present = [...t.values()].reduce((s, v) => s + v, 0);
    if (present * 2 >= all.length) out[k] = best;
  }
  return out;
}

/**
 * Checks the orders with external_id `prefix*`: `expectedOrders` of them, all completed, each
 * with exactly the effects of one completed order, and stock moved by qty x orders.
 * `stockBefore` is `readStock()` taken before the orders were placed, `ordered` the units the
 * bench ordered per SKU since then.
 */
/** The bench's orders (external id `prefix…`) by status: every started order recorded once and completed, else the problems. */
export async function completionProblems(pool: pg.Pool, prefix: string, expectedOrders: number): Promise<{ problems: string[]; completed: number; total: number }> {
  const problems: string[] = [];
  const { rows: statusRows } = await pool.query<{ status: string; n: string }>(
    `SELECT status, count(*) AS n FROM orders WHERE external_id LIKE $1 GROUP BY status`,
    [`${prefix}%`],
  );
  const byStatus = Object.fromEntries(statusRows.map((r) => [r.status, Number(r.n)]));
  const total = Object.values(byStatus).reduce((s, n) => s + n, 0);
  const completed = byStatus.completed ?? 0;
  if (total !== expectedOrders) problems.push(`${total} orders recorded, ${expectedOrders} started`);
  if (completed !== expectedOrders) problems.push(`${completed} of ${expectedOrders} orders completed (statuses: ${JSON.stringify(byStatus)})`);
  return { problems, completed, total };
}

export async function checkMarketplaceOrders(
  pool: pg.Pool,
  prefix: string,
  expectedOrders: number,
  stockBefore: Map<string, number>,
  ordered: Map<string, number>,
): Promise<MarketplaceCheck> {
  const { problems, completed, total } = await completionProblems(pool, prefix, expectedOrders);

  const counts = await effectCounts(pool, prefix);
  const expected = { ...modal([...counts.values()]), ...EXACT };
  const duplicates: MarketplaceCheck['duplicates'] = [];
  for (const [orderId, c] of counts) {
    for (const k of new Set([...Object.keys(c), ...Object.keys(expected)])) {
      const n = c[k] ?? 0;
      const e = expected[k] ?? 0;
      if (n !== e) duplicates.push({ orderId, key: k, count: n, expected: e });
    }
  }
  if (duplicates.length > 0)
    problems.push(`${new Set(duplicates.map((d) => d.orderId)).size} orders with effects counted wrong, e.g. ${JSON.stringify(duplicates.slice(0, 3))}`);

  const after = await readStock(pool);
  const stock = [...new Set([...ordered.keys(), ...after.keys()])].map((sku) => ({
    sku,
    moved: (stockBefore.get(sku) ?? 0) - (after.get(sku) ?? 0),
    expected: ordered.get(sku) ?? 0,
  }));
  const wrong = stock.filter((s) => s.moved !== s.expected);
  if (wrong.length > 0) problems.push(`stock moved wrong for ${wrong.length} SKUs, e.g. ${JSON.stringify(wrong.slice(0, 3))}`);
  return { orders: total, completed, duplicates, expected, stock: wrong, problems };
}

/** Units on hand per SKU over every location. */
export async function readStock(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ sku: string; on_hand: string }>('SELECT sku, sum(on_hand) AS on_hand FROM stock_levels GROUP BY sku');
  return new Map(rows.map((r) => [r.sku, Number(r.on_hand)]));
}

// Exactly-once checks over finished `steps` orders: every order completed, every node of the flow's path
// succeeded once (run once), and every order's effects counted the same as one correct order's.
import type pg from 'pg';
import { completionProblems, effectCounts, modal, readStock, type EffectCounts } from './marketplace-checks.js';
import type { StepsFlow } from './steps-flow.js';

export interface StepsCheck {
  orders: number;
  completed: number;
  /** Orders completed with every count right (what the exactly-once row shows). */
  completedOnce: number;
  /** Orders whose counts differ from the expected ones (the first 20). */
  duplicates: { orderId: string; key: string; count: number; expected: number }[];
  /** Orders with a count wrong, all of them. */
  wrongOrders: number;
  /** Counts of one correct order. */
  expected: EffectCounts;
  /** SKUs whose stock moved differently from what the orders took (commerce; empty when right). */
  stock: { sku: string; moved: number; expected: number }[];
  problems: string[];
}

/** What one completed order of the flow must have written exactly (the rest must only agree between orders). */
function exactCounts(flow: StepsFlow): EffectCounts {
  const exact: EffectCounts = { 'status:completed': 1, 'outbox:order.completed': 1, [`waits_received:${flow.waitNode}`]: 1 };
  for (const id of flow.path) exact[`node:${id}:succeeded:runs=1`] = 1;
  if (flow.variant === 'commerce')
    Object.assign(exact, {
      seller_orders: 1,
      'seller_orders:accepted': 1,
      payment_authorizations: 1,
      payment_charges: 1,
      shipments: 1,
      payouts: 1,
      'step:authorize': 1,
      'step:split': 1,
      'step:accept': 1,
      'step:reserve': 1,
      'step:ship': 1,
      'step:capture': 1,
      'step:payout': 1,
    });
  return exact;
}

/**
 * Adds each order's status (`status:<status>`) and its node records (`order_nodes`: status and how
 * often each node ran, `node:<id>:<status>:runs=<n>`) to its counts.
 */
async function statusAndNodeCounts(pool: pg.Pool, prefix: string, into: Map<string, EffectCounts>): Promise<void> {
  const { rows } = await pool.query<{ order_id: string; k: string; n: string }>(
    `SELECT id AS order_id, 'status:' || status AS k, 1 AS n FROM orders WHERE external_id LIKE $1
     UNION ALL
     SELECT n.order_id, 'node:' || n.node_id || ':' || n.status || ':runs=' || n.runs AS k, count(*) AS n
       FROM order_nodes n JOIN orders o ON o.id = n.order_id
      WHERE o.external_id LIKE $1 GROUP BY 1, 2`,
    [`${prefix}%`],
  );
  for (const r of rows) {
    const c = into.get(r.order_id);
    if (c) c[r.k] = (c[r.k] ?? 0) + Number(r.n);
  }
}

/**
 * Checks the orders with external_id `prefix*`: `expectedOrders` of them, all completed, each
 * node of the path succeeded once, each order's effects those of one correct order; with
 * `stock`, units taken per SKU equal to what the bench ordered since `stock.before` was read.
 */
export async function checkStepsOrders(
  pool: pg.Pool,
  flow: StepsFlow,
  prefix: string,
  expectedOrders: number,
  stock?: { before: Map<string, number>; ordered: Map<string, number> },
): Promise<StepsCheck> {
  const { problems, completed, total } = await completionProblems(pool, prefix, expectedOrders);

  const counts = await effectCounts(pool, prefix);
  await statusAndNodeCounts(pool, prefix, counts);
  const expected = { ...modal([...counts.values()]), ...exactCounts(flow) };
  const duplicates: StepsCheck['duplicates'] = [];
  for (const [orderId, c] of counts)
    for (const k of new Set([...Object.keys(c), ...Object.keys(expected)])) {
      const n = c[k] ?? 0;
      const e = expected[k] ?? 0;
      if (n !== e) duplicates.push({ orderId, key: k, count: n, expected: e });
    }
  const wrongOrders = new Set(duplicates.map((d) => d.orderId)).size;
  if (wrongOrders > 0) problems.push(`${wrongOrders} orders with steps or effects counted wrong, e.g. ${JSON.stringify(duplicates.slice(0, 3))}`);

  let wrongStock: StepsCheck['stock'] = [];
  if (stock) {
    const after = await readStock(pool);
    wrongStock = [...new Set([...stock.ordered.keys(), ...after.keys()])]
      .map((sku) => ({ sku, moved: (stock.before.get(sku) ?? 0) - (after.get(sku) ?? 0), expected: stock.ordered.get(sku) ?? 0 }))
      .filter((s) => s.moved !== s.expected);
    if (wrongStock.length > 0) problems.push(`stock moved wrong for ${wrongStock.length} SKUs, e.g. ${JSON.stringify(wrongStock.slice(0, 3))}`);
  }
  return { orders: total, completed, completedOnce: counts.size - wrongOrders, duplicates: duplicates.slice(0, 20), wrongOrders, expected, stock: wrongStock, problems };
}

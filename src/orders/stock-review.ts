// The stock review: starts one tpl-reorder order per first-party SKU at or below its reorder point (at most one open per SKU).
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { OrderRuntime } from '../engine/runtime/order-runtime.js';
import { insertOrder, newOrderId } from './new-order.js';
import { FINISHED_STATUSES } from '../engine/runtime/run-row.js';

/** The flow every reorder runs on. */
export const REORDER_FLOW_ID = 'tpl-reorder';

/** Serialises reviews across nodes so two never raise the same reorder. */
const STOCK_REVIEW_LOCK = 7_342_400;

export interface StockReviewDeps {
  db: Db;
  clock: Clock;
  runtime: OrderRuntime;
  logger?: { error(obj: object, msg?: string): void };
}

export interface StockReviewResult {
  /** One entry per reorder started. */
  started: { sku: string; orderId: string; qty: number; locationId: string | null; available: number; reorderPoint: number }[];
  /** SKUs at or below their reorder point that already have an open reorder. */
  alreadyOpen: string[];
  /** Why nothing was started, when the reorder flow is not published. */
  skipped: string | null;
}

/**
 * Reviews stock: for every first-party, non-digital product with a reorder point above zero
 * whose free stock (on hand minus reserved, all locations) is at or below that point and which
 * has no unfinished tpl-reorder order, records a reorder order (qty = reorderQty, else enough to
 * reach twice the reorder point) to be received at the warehouse holding the least of it, then
 * starts each one. A reorder point of 0 leaves a SKU out of the review.
 */
export async function runStockReview(deps: StockReviewDeps): Promise<StockReviewResult> {
  const now = deps.clock.now();
  // Without the statement timeout: a review waits for another node's review on the lock, and scans every product.
  const recorded = await deps.db.maintenanceTx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [STOCK_REVIEW_LOCK]);
    const flow = await tx.query<{ published_version: number | null }>('SELECT published_version FROM flows WHERE id = $1', [REORDER_FLOW_ID]);
    const version: number | null = flow.rows[0]?.published_version ?? null;
    if (version === null) return { started: [], alreadyOpen: [], skipped: `Flow ${REORDER_FLOW_ID} is not published` } satisfies StockReviewResult;
    const low = await tx.query<{ sku: string; name: string; reorder_point: number; reorder_qty: number | null; available: number }>(
      `SELECT p.sku, p.name, p.reorder_point, p.reorder_qty, coalesce(sum(s.on_hand - s.reserved), 0)::int AS available
         FROM products p LEFT JOIN stock_levels s ON s.sku = p.sku
        WHERE p.seller_id IS NULL AND NOT p.digital AND p.reorder_point > 0
        GROUP BY p.sku
       HAVING coalesce(sum(s.on_hand - s.reserved), 0) <= p.reorder_point
        ORDER BY p.sku`,
    );
    const result: StockReviewResult = { started: [], alreadyOpen: [], skipped: null };
    for (const p of low.rows) {
      const open = await tx.query(
        `SELECT 1 FROM orders o JOIN order_lines l ON l.order_id = o.id
          WHERE o.flow_id = $1 AND l.sku = $2 AND NOT (o.status = ANY($3::text[])) LIMIT 1`,
        [REORDER_FLOW_ID, p.sku, [...FINISHED_STATUSES]],
      );
      if (open.rows.length > 0) {
        result.alreadyOpen.push(p.sku);
        continue;
      }
      const where = await tx.query<{ id: string }>(
        `SELECT l.id FROM locations l LEFT JOIN stock_levels s ON s.location_id = l.id AND s.sku = $1
          WHERE l.kind = 'warehouse' ORDER BY (s.sku IS NULL), coalesce(s.on_hand - s.reserved, 0), l.id LIMIT 1`,
        [p.sku],
      );
      const locationId: string | null = where.rows[0]?.id ?? null;
      const available = Number(p.available);
      const qty: number = p.reorder_qty ?? Math.max(1, p.reorder_point * 2 - available);
      const orderId = newOrderId();
      const day = new Date(now).toISOString().slice(0, 10);
      const title = `Reorder ${p.sku} (${p.name})`;
      const line = { sku: p.sku, name: p.name, qty, locationId };
      const meta = { source: 'stock-review', stockReview: { available, reorderPoint: p.reorder_point } };
      await insertOrder(
        tx,
        {
          id: orderId,
          flowId: REORDER_FLOW_ID,
          flowVersion: version,
          model: 'replenishment',
          channel: 'schedule',
          externalId: `stock-review:${p.sku}:${day}`,
          title,
          customerId: null,
          contactEmail: null,
          currency: 'USD',
          fxRate: 1,
          subtotal: 0,
          tax: 0,
          total: 0,
          input: {
            model: 'replenishment',
            channel: 'schedule',
            title,
            currency: 'USD',
            lines: [{ sku: p.sku, name: p.name, qty, ...(locationId ? { locationId } : {}) }],
            ...(locationId ? { fulfillment: { method: 'ship', locationId } } : {}),
            meta,
          },
          meta,
          vars: {},
          lines: [{ sku: line.sku, name: line.name, qty, unitPriceMinor: null, sellerId: null, locationId }],
        },
        now,
      );
      result.started.push({ sku: p.sku, orderId, qty, locationId, available, reorderPoint: p.reorder_point });
    }
    return result;
  });
  // Each reorder's first slice runs in its own command; a failure leaves it queued (still "open").
  for (const s of recorded.started)
    await deps.runtime.start(s.orderId).catch((err: unknown) => deps.logger?.error({ err, orderId: s.orderId }, 'starting a reorder failed'));
  return recorded;
}

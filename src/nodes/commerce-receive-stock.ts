// Node type `commerce.receive_stock`: books the delivered goods onto the shelf (goods receipt).
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { locationsById, productsBySku } from '../commerce/catalogue-repo.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import { TerminalError } from '../domain/errors.js';
import { readOrderLines } from '../commerce/order-lines-repo.js';
import { fulfillmentOf } from '../commerce/reserve-order-stock.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

/** Takes received units back off the count (they were booked by mistake or the order was undone). */
async function reverseReceipts(ctx: StepContext<NoParams>): Promise<void> {
  const now = ctx.clock.now();
  const generation = generationOf(ctx.order);
  const { rows } = await ctx.tx.query(
    `UPDATE stock_receipts SET status = 'reversed', reversed_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'received' RETURNING *`,
    [ctx.order.id, generation, ctx.nodeId, now],
  );
  for (const r of rows) {
    const res = await ctx.tx.query(
      'UPDATE stock_levels SET on_hand = on_hand - $3, updated_at = $4 WHERE sku = $1 AND location_id = $2 AND on_hand - reserved >= $3',
      [r.sku, r.location_id, r.qty, now],
    );
    if ((res.rowCount ?? 0) === 0) throw new Error(`Cannot take back ${r.qty} x ${r.sku} at ${r.location_id}: already reserved or sold`);
  }
  await ctx.tx.query(
    `UPDATE purchase_orders SET status = 'issued', received_at = NULL WHERE order_id = $1 AND generation = $2 AND status = 'received'`,
    [ctx.order.id, generation],
  );
}

export const commerceReceiveStock: NodeTypeDef<NoParams> = {
  type: 'commerce.receive_stock',
  kind: 'step',
  label: 'Receive goods',
  description:
    'Books the order\'s catalogue lines onto the shelf at the line\'s location (else the order\'s fulfillment location, ' +
    'else the first warehouse) and marks the purchase order received. Undo takes the units back off the count.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ received: [{ sku, locationId, qty }], skipped: [sku] }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const generation = generationOf(order);
    const lines = await readOrderLines(ctx.tx, order.id);
    const products = await productsBySku(ctx.tx, lines.map((l) => l.sku));
    const locations = await locationsById(ctx.tx);
    const fallback = fulfillmentOf(order.input).locationId ?? [...locations.values()].find((l) => l.kind === 'warehouse')?.id ?? null;
    const received: { sku: string; locationId: string; qty: number }[] = [];
    const skipped: string[] = [];
    for (const line of lines) {
      const product = products.get(line.sku);
      if (!product || product.digital) {
        skipped.push(line.sku);
        continue;
      }
      const locationId = line.locationId ?? fallback;
      if (!locationId || !locations.has(locationId)) throw new TerminalError(`No receiving location for ${line.sku}`);
      await ctx.tx.query(
        `INSERT INTO stock_levels (sku, location_id, on_hand, reserved, updated_at) VALUES ($1, $2, $3, 0, $4)
         ON CONFLICT (sku, location_id) DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand, updated_at = EXCLUDED.updated_at`,
        [line.sku, locationId, line.qty, now],
      );
      await ctx.tx.query(
        `INSERT INTO stock_receipts (id, order_id, generation, node_id, sku, location_id, qty, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'received', $8)`,
        [newCommerceId('rcv'), order.id, generation, ctx.nodeId, line.sku, locationId, line.qty, now],
      );
      received.push({ sku: line.sku, locationId, qty: line.qty });
    }
    await ctx.tx.query(
      `UPDATE purchase_orders SET status = 'received', received_at = $3 WHERE order_id = $1 AND generation = $2 AND status = 'issued'`,
      [order.id, generation, now],
    );
    return {
      branch: 'ok',
      output: { received, skipped },
      summary: `Received ${received.reduce((n, r) => n + r.qty, 0)} unit(s)` + (skipped.length ? `; not stocked: ${skipped.join(', ')}` : ''),
    };
  },
  compensate: reverseReceipts,
  cancel: reverseReceipts,
};

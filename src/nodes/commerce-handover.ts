// Node type `commerce.handover`: the buyer takes the goods (a staged pickup, or straight over the till).
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { fulfillmentOf, reserveOrderStock } from '../commerce/reserve-order-stock.js';
import { consumeReservations, reservationsOf } from '../commerce/stock-repo.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

export const commerceHandover: NodeTypeDef<NoParams> = {
  type: 'commerce.handover',
  kind: 'step',
  label: 'Hand over',
  description:
    'Hands the goods to the buyer: completes the staged pickup, or at a till takes the units off the shelf of the ' +
    'sale\'s store (input fulfillment.locationId). Nothing to undo: the goods are with the buyer.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ pickupId, locationId, lines: [{ lineNo, sku, qty }] }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const generation = generationOf(order);
    const staged = await ctx.tx.query(
      `SELECT id, location_id FROM pickups WHERE order_id = $1 AND generation = $2 AND status = 'staged' ORDER BY staged_at LIMIT 1`,
      [order.id, generation],
    );
    const pickup = staged.rows[0] as { id: string; location_id: string } | undefined;
    if (!pickup) await reserveOrderStock(ctx.tx, { id: order.id, generation, input: order.input, meta: order.meta }, ctx.nodeId, now);
    const held = await reservationsOf(ctx.tx, order.id, generation, ['reserved']);
    await consumeReservations(ctx.tx, held.map((r) => r.id), pickup ? { pickupId: pickup.id } : {}, now);
    if (pickup) await ctx.tx.query(`UPDATE pickups SET status = 'handed_over', handed_over_at = $2 WHERE id = $1`, [pickup.id, now]);
    const locationId = pickup?.location_id ?? fulfillmentOf(order.input).locationId ?? held[0]?.locationId ?? null;
    const lines = held.map((r) => ({ lineNo: r.lineNo, sku: r.sku, qty: r.qty }));
    return {
      branch: 'ok',
      output: { pickupId: pickup?.id ?? null, locationId, lines },
      summary: `Handed over ${lines.reduce((n, l) => n + l.qty, 0)} unit(s)${locationId ? ` at ${locationId}` : ''}`,
      emit: { event: 'order.delivered' },
    };
  },
};

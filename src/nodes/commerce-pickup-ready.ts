// Node type `commerce.pickup_ready`: stages the order's goods at the pickup store with a collection code.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { newCommerceId, newHumanCode } from '../domain/commerce-ids.js';
import { TerminalError } from '../domain/errors.js';
import { fulfillmentOf, reserveOrderStock } from '../commerce/reserve-order-stock.js';
import { linkPickup, releaseReservations } from '../commerce/stock-repo.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

/** Cancels the staged pickup and releases the units set aside for it. */
async function cancelPickup(ctx: StepContext<NoParams>): Promise<void> {
  const generation = generationOf(ctx.order);
  await ctx.tx.query(
    `UPDATE pickups SET status = 'cancelled', cancelled_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'staged'`,
    [ctx.order.id, generation, ctx.nodeId, ctx.clock.now()],
  );
  await releaseReservations(ctx.tx, ctx.order.id, generation, ctx.clock.now());
}

export const commercePickupReady: NodeTypeDef<NoParams> = {
  type: 'commerce.pickup_ready',
  kind: 'step',
  label: 'Ready for pickup',
  description:
    'Stages the reserved goods at the pickup store (input fulfillment.locationId, else where they are reserved) with a ' +
    'collection code for the buyer. Undo cancels the staged pickup and releases its units.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ pickupId, locationId, code, lines: [{ lineNo, sku, qty }] }',
  vars: 'vars.pickup = { pickupId, locationId, code }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const generation = generationOf(order);
    const { all } = await reserveOrderStock(ctx.tx, { id: order.id, generation, input: order.input, meta: order.meta }, ctx.nodeId, now);
    const held = all.filter((r) => r.status === 'reserved');
    const locationId = fulfillmentOf(order.input).locationId ?? held[0]?.locationId;
    if (!locationId) throw new TerminalError('No pickup store: set input fulfillment.locationId');
    const lines = held.map((r) => ({ lineNo: r.lineNo, sku: r.sku, qty: r.qty }));
    const id = newCommerceId('pu');
    const code = newHumanCode(2, 4);
    await ctx.tx.query(
      `INSERT INTO pickups (id, order_id, generation, node_id, location_id, code, lines, status, staged_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'staged', $8)`,
      [id, order.id, generation, ctx.nodeId, locationId, code, JSON.stringify(lines), now],
    );
    await linkPickup(ctx.tx, held.map((r) => r.id), id, now);
    return {
      branch: 'ok',
      output: { pickupId: id, locationId, code, lines },
      vars: { pickup: { pickupId: id, locationId, code } },
      summary: `Ready for pickup at ${locationId} (code ${code})`,
      emit: { event: 'order.ready_for_pickup' },
    };
  },
  compensate: cancelPickup,
  cancel: cancelPickup,
};

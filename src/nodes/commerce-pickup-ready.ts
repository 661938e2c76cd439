// Node type `commerce.pickup_ready`: stages the order's goods at the pickup store with a collection code.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { fulfillmentOf } from '../commerce/fulfillment.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

/** Cancels the staged pickup and releases the units set aside for it. */
async function cancelPickup(ctx: StepContext<NoParams>): Promise<void> {
  const generation = generationOf(ctx.order);
  await ctx.ports.pickups.cancelStaged(ctx.order.id, generation, ctx.nodeId, ctx.clock.now());
  await ctx.ports.stock.release(ctx.order.id, generation, ctx.clock.now());
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
    const { stock, pickups } = ctx.ports;
    const { all } = await stock.reserveOrder({ id: order.id, generation, input: order.input, meta: order.meta }, ctx.nodeId, now);
    const held = all.filter((r) => r.status === 'reserved');
    const locationId = fulfillmentOf(order.input).locationId ?? held[0]?.locationId;
    if (!locationId) throw new TerminalError('No pickup store: set input fulfillment.locationId');
    const lines = held.map((r) => ({ lineNo: r.lineNo, sku: r.sku, qty: r.qty }));
    const { id, code } = await pickups.stage({ orderId: order.id, generation, nodeId: ctx.nodeId, locationId, lines }, now);
    await stock.linkPickup(held.map((r) => r.id), id, now);
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

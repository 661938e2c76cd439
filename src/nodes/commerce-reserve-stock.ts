// Node type `commerce.reserve_stock`: holds stock for every physical line; undo releases what is still held.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { FALLIBLE_STEP, generationOf, noParams, type NoParams } from './commerce-support.js';

async function release(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.ports.stock.release(ctx.order.id, generationOf(ctx.order), ctx.clock.now());
}

export const commerceReserveStock: NodeTypeDef<NoParams> = {
  type: 'commerce.reserve_stock',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Reserve stock',
  description:
    'Reserves units for every line of a stocked, non-digital product: at the line\'s locationId, else the pickup store, ' +
    'else the nearest location to the ship-to coordinates that has them, else the best-stocked warehouse. Not enough ' +
    'anywhere (or `out_of_stock`) fails without retry. Undo releases reservations still held.',
  params: noParams,
  ...FALLIBLE_STEP,
  outputs: '{ reservations: [{ lineNo, sku, locationId, qty }], untracked: [sku] }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const res = await ctx.ports.stock.reserveOrder({ id: order.id, generation: generationOf(order), input: order.input, meta: order.meta }, ctx.nodeId, ctx.clock.now());
    const reservations = res.all.map((r) => ({ lineNo: r.lineNo, sku: r.sku, locationId: r.locationId, qty: r.qty }));
    const units = reservations.reduce((n, r) => n + r.qty, 0);
    return {
      branch: 'ok',
      output: { reservations, untracked: res.untracked },
      summary: `Reserved ${units} unit(s) on ${reservations.length} line(s)` + (res.untracked.length ? `; not stock-tracked: ${res.untracked.join(', ')}` : ''),
    };
  },
  compensate: release,
  cancel: release,
};

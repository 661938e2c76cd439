// Node type `commerce.restock`: a return's units are back on the shelf, available again (contract 18).
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';
import { placeOnShelf } from './shelf-placement.js';

/** Takes the units this node put back off the shelf again (the return was undone). */
async function reverseRestock(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.ports.stock.reverseRestock(ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now());
}

export const commerceRestock: NodeTypeDef<NoParams> = {
  type: 'commerce.restock',
  kind: 'step',
  label: 'Restock',
  description:
    'Puts the order\'s units back on the shelf, available again: each catalogue line at its location (a return\'s lines ' +
    'carry where the units were shipped from), else the order\'s fulfillment location, else the first warehouse. ' +
    'Digital and non-catalogue lines are not stocked. Undo takes the units back off the shelf.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ restocked: [{ sku, locationId, qty }], skipped: [sku] }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const generation = generationOf(order);
    const rule = { lineLocation: 'preferred', noLocation: (sku: string) => `No location to restock ${sku} at` } as const;
    const { placed: restocked, skipped } = await placeOnShelf(ctx, rule, (line) =>
      ctx.ports.stock.restockReturned({ orderId: order.id, generation, nodeId: ctx.nodeId, ...line }, now),
    );
    const units = restocked.reduce((n, r) => n + r.qty, 0);
    return {
      branch: 'ok',
      output: { restocked, skipped },
      summary: `Restocked ${units} unit(s)` + (skipped.length ? `; not stocked: ${skipped.join(', ')}` : ''),
    };
  },
  compensate: reverseRestock,
  cancel: reverseRestock,
};

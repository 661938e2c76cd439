// Node type `commerce.receive_stock`: books the delivered goods onto the shelf (goods receipt).
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';
import { placeOnShelf } from './shelf-placement.js';

/** Takes received units back off the count (they were booked by mistake or the order was undone). */
async function reverseReceipts(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.ports.purchasing.reverseReceipts(ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now());
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
    const { purchasing } = ctx.ports;
    const rule = { lineLocation: 'binding', noLocation: (sku: string) => `No receiving location for ${sku}` } as const;
    const { placed: received, skipped } = await placeOnShelf(ctx, rule, (line) =>
      purchasing.receive({ orderId: order.id, generation, nodeId: ctx.nodeId, ...line }, now),
    );
    await purchasing.markReceived(order.id, generation, now);
    return {
      branch: 'ok',
      output: { received, skipped },
      summary: `Received ${received.reduce((n, r) => n + r.qty, 0)} unit(s)` + (skipped.length ? `; not stocked: ${skipped.join(', ')}` : ''),
    };
  },
  compensate: reverseReceipts,
  cancel: reverseReceipts,
};

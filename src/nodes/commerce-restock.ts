// Node type `commerce.restock`: a return's units are back on the shelf, available again (contract 18).
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { fulfillmentOf } from '../commerce/fulfillment.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

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
    const { orderLines, catalogue, stock } = ctx.ports;
    const lines = await orderLines.read(order.id);
    const products = await catalogue.productsBySku(lines.map((l) => l.sku));
    const locations = await catalogue.locationsById();
    const fallback = fulfillmentOf(order.input).locationId ?? [...locations.values()].find((l) => l.kind === 'warehouse')?.id ?? null;
    const restocked: { sku: string; locationId: string; qty: number }[] = [];
    const skipped: string[] = [];
    for (const line of lines) {
      const product = products.get(line.sku);
      if (!product || product.digital) {
        skipped.push(line.sku);
        continue;
      }
      const locationId = line.locationId && locations.has(line.locationId) ? line.locationId : fallback;
      if (!locationId || !locations.has(locationId)) throw new TerminalError(`No location to restock ${line.sku} at`);
      await stock.restockReturned({ orderId: order.id, generation, nodeId: ctx.nodeId, sku: line.sku, locationId, qty: line.qty }, now);
      restocked.push({ sku: line.sku, locationId, qty: line.qty });
    }
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

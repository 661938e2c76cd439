// Node type `commerce.handover`: the buyer takes the goods (a staged pickup, or straight over the till).
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { fulfillmentOf } from '../commerce/fulfillment.js';
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
    const { stock, pickups } = ctx.ports;
    const pickup = await pickups.staged(order.id, generation);
    if (!pickup) await stock.reserveOrder({ id: order.id, generation, input: order.input, meta: order.meta }, ctx.nodeId, now);
    const held = await stock.reservations(order.id, generation, ['reserved']);
    await stock.consume(held.map((r) => r.id), pickup ? { pickupId: pickup.id } : {}, now);
    if (pickup) await pickups.handOver(pickup.id, now);
    const locationId = pickup?.locationId ?? fulfillmentOf(order.input).locationId ?? held[0]?.locationId ?? null;
    const lines = held.map((r) => ({ lineNo: r.lineNo, sku: r.sku, qty: r.qty }));
    return {
      branch: 'ok',
      output: { pickupId: pickup?.id ?? null, locationId, lines },
      summary: `Handed over ${lines.reduce((n, l) => n + l.qty, 0)} unit(s)${locationId ? ` at ${locationId}` : ''}`,
      emit: { event: 'order.delivered' },
    };
  },
};

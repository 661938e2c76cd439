// Node type `commerce.ship`: books a carrier shipment per ship-from location for the reserved lines.
import { z } from 'zod';
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { reserveOrderStock } from '../commerce/reserve-order-stock.js';
import { consumeReservations, restockShipments } from '../commerce/stock-repo.js';
import { carrierPort, FALLIBLE_STEP, generationOf, simulateOf } from './commerce-support.js';

export const shipParams = z.strictObject({
  service: z.enum(['ground', 'express', 'courier']).default('ground'),
});

export type ShipParams = z.infer<typeof shipParams>;

/**
 * Cancels this node's live shipments; once the order has no live shipment left in this run,
 * the stock they consumed goes back on the shelf.
 */
async function cancelShipments(ctx: StepContext<ShipParams>): Promise<void> {
  const now = ctx.clock.now();
  const generation = generationOf(ctx.order);
  const { rows } = await ctx.tx.query(
    `SELECT id FROM shipments WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'shipped'`,
    [ctx.order.id, generation, ctx.nodeId],
  );
  for (const r of rows) await carrierPort(ctx.services).cancelShipment(ctx.tx, r.id, now);
  const live = await ctx.tx.query(`SELECT 1 FROM shipments WHERE order_id = $1 AND generation = $2 AND status = 'shipped' LIMIT 1`, [ctx.order.id, generation]);
  if (live.rows.length > 0) return;
  const cancelled = await ctx.tx.query(`SELECT id FROM shipments WHERE order_id = $1 AND generation = $2 AND status = 'cancelled'`, [ctx.order.id, generation]);
  await restockShipments(ctx.tx, cancelled.rows.map((r) => r.id), now);
}

export const commerceShip: NodeTypeDef<ShipParams> = {
  type: 'commerce.ship',
  kind: 'step',
  label: 'Ship',
  description:
    'Books one carrier shipment per ship-from location for the order\'s reserved lines (reserving first any line not yet ' +
    'reserved) and takes the units off the shelf. `ship_error` makes the carrier refuse every attempt (retried, then ' +
    'rollback). Undo cancels its open shipments and restocks their units once no shipment of the order is live.',
  params: shipParams,
  ...FALLIBLE_STEP,
  outputs: '{ shipments: [{ id, locationId, carrier, service, trackingNumber, lines: [{ lineNo, sku, qty }] }] }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const generation = generationOf(order);
    // Reserving first returns the run's reservations, so what is still held needs no second read.
    const { all } = await reserveOrderStock(ctx.tx, { id: order.id, generation, input: order.input, meta: order.meta }, ctx.nodeId, now);
    const held = all.filter((r) => r.status === 'reserved').sort((a, b) => a.lineNo - b.lineNo);
    const byLocation = new Map<string, typeof held>();
    for (const r of held) byLocation.set(r.locationId, [...(byLocation.get(r.locationId) ?? []), r]);
    const shipments = [];
    for (const [locationId, reservations] of byLocation) {
      const lines = reservations.map((r) => ({ lineNo: r.lineNo, sku: r.sku, qty: r.qty }));
      const shipment = await carrierPort(ctx.services).createShipment(
        ctx.tx,
        { orderId: order.id, generation, nodeId: ctx.nodeId, locationId, lines, shipTo: order.meta.shipTo ?? null, service: ctx.params.service, simulate: simulateOf(order) },
        now,
      );
      await consumeReservations(ctx.tx, reservations.map((r) => r.id), { shipmentId: shipment.id }, now);
      shipments.push({ ...shipment, lines });
    }
    if (shipments.length === 0) return { branch: 'ok', output: { shipments: [] }, summary: 'Nothing to ship' };
    return {
      branch: 'ok',
      output: { shipments },
      summary: `Shipped ${shipments.length} parcel(s): ${shipments.map((s) => `${s.carrier} ${s.trackingNumber}`).join(', ')}`,
      emit: { event: 'order.shipped' },
    };
  },
  compensate: cancelShipments,
  cancel: cancelShipments,
};

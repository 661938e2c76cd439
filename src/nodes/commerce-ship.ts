// Node type `commerce.ship`: books a carrier shipment per ship-from location for the reserved lines.
import { z } from 'zod';
import type { ExternalCall, NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import type { ShipmentLine, ShipmentRecord } from '../commerce/carrier.js';
import { cancelShipmentsRequest, shipmentsAnswer, shipmentsRequest } from '../commerce/http-carrier.js';
import { carrierAdapter, FALLIBLE_STEP, generationOf, simulateOf } from './commerce-support.js';

export const shipParams = z.strictObject({
  service: z.enum(['ground', 'express', 'courier']).default('ground'),
});

export type ShipParams = z.infer<typeof shipParams>;

/** The lines leaving one location, with the reservations they consume once shipped. */
interface Parcel {
  locationId: string;
  lines: ShipmentLine[];
  reservationIds: string[];
}

/** Reserves any line not yet reserved, then groups what the run holds by ship-from location (lines in order). */
async function planParcels(ctx: StepContext<ShipParams>, now: number): Promise<Parcel[]> {
  const { order } = ctx;
  // Reserving first returns the run's reservations, so what is still held needs no second read.
  const { all } = await ctx.ports.stock.reserveOrder({ id: order.id, generation: generationOf(order), input: order.input, meta: order.meta }, ctx.nodeId, now);
  const held = all.filter((r) => r.status === 'reserved').sort((a, b) => a.lineNo - b.lineNo);
  const byLocation = new Map<string, Parcel>();
  for (const r of held) {
    const parcel = byLocation.get(r.locationId) ?? { locationId: r.locationId, lines: [], reservationIds: [] };
    parcel.lines.push({ lineNo: r.lineNo, sku: r.sku, qty: r.qty });
    parcel.reservationIds.push(r.id);
    byLocation.set(r.locationId, parcel);
  }
  return [...byLocation.values()];
}

/** The booked parcels leave the shelf: each one's reservations are consumed, linked to its shipment (one write for all). */
async function shipped(ctx: StepContext<ShipParams>, parcels: readonly Parcel[], shipments: readonly ShipmentRecord[], now: number) {
  await ctx.ports.stock.consumeShipped(
    parcels.map((p, i) => ({ shipmentId: shipments[i].id, reservationIds: p.reservationIds })),
    now,
  );
  return shipments.map((s, i) => ({ ...s, lines: parcels[i].lines }));
}

function result(shipments: (ShipmentRecord & { lines: ShipmentLine[] })[]): StepResult {
  if (shipments.length === 0) return { branch: 'ok', output: { shipments: [] }, summary: 'Nothing to ship' };
  return {
    branch: 'ok',
    output: { shipments },
    summary: `Shipped ${shipments.length} parcel(s): ${shipments.map((s) => `${s.carrier} ${s.trackingNumber}`).join(', ')}`,
    emit: { event: 'order.shipped' },
  };
}

/**
 * Cancels this node's live shipments; once the order has no live shipment left in this run,
 * the stock they consumed goes back on the shelf. With the HTTP carrier the shipments are marked
 * cancelled here and cancelled at the carrier in one call after commit.
 */
async function cancelShipments(ctx: StepContext<ShipParams>): Promise<void | ExternalCall> {
  const now = ctx.clock.now();
  const generation = generationOf(ctx.order);
  const { shipments, stock } = ctx.ports;
  const live = await shipments.liveOfNode(ctx.order.id, generation, ctx.nodeId);
  const http = await carrierAdapter(ctx);
  // Either way the shipment is marked cancelled here; the HTTP carrier is told after commit (below).
  for (const s of live) await shipments.cancel(s.id, now);
  if (!(await shipments.anyLive(ctx.order.id, generation))) {
    const cancelled = await shipments.cancelledOfRun(ctx.order.id, generation);
    await stock.restockShipments(cancelled, now);
  }
  const carrierRefs = live.map((s) => s.carrierRef).filter((ref): ref is string => ref !== null);
  if (!http || carrierRefs.length === 0) return;
  return { call: cancelShipmentsRequest(http, { orderId: ctx.order.id, carrierRefs }) };
}

export const commerceShip: NodeTypeDef<ShipParams> = {
  type: 'commerce.ship',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Ship',
  description:
    'Books one carrier shipment per ship-from location for the order\'s reserved lines (reserving first any line not yet ' +
    'reserved) and takes the units off the shelf. `ship_error` makes the carrier refuse every attempt (retried, then ' +
    'rollback). Undo cancels its open shipments and restocks their units once no shipment of the order is live.',
  params: shipParams,
  ...FALLIBLE_STEP,
  outputs: '{ shipments: [{ id, locationId, carrier, service, trackingNumber, lines: [{ lineNo, sku, qty }] }] }',
  async run(ctx): Promise<StepResult | ExternalCall> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const parcels = await planParcels(ctx, now);
    if (parcels.length === 0) return result([]);
    const shipTo = order.meta.shipTo ?? null;
    const http = await carrierAdapter(ctx);
    // The HTTP carrier books every parcel in one request; the reservations made above commit with it.
    if (http) return { call: shipmentsRequest(http, { orderId: order.id, service: ctx.params.service, shipTo, parcels }) };
    const booked = await ctx.ports.shipments.book(
      parcels.map((p) => ({ orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, locationId: p.locationId, lines: p.lines, shipTo, service: ctx.params.service, simulate: simulateOf(order) })),
      now,
    );
    return result(await shipped(ctx, parcels, booked, now));
  },
  // The HTTP carrier booked the parcels (in parcel order): record each shipment as the in-database carrier does.
  async answer(ctx, answer): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const parcels = await planParcels(ctx, now);
    const booked = shipmentsAnswer(answer, parcels.length);
    const recorded = await ctx.ports.shipments.recordBooked(
      parcels.map((parcel, i) => ({
        orderId: order.id,
        generation: generationOf(order),
        nodeId: ctx.nodeId,
        locationId: parcel.locationId,
        carrier: booked[i].carrier,
        service: ctx.params.service,
        trackingNumber: booked[i].trackingNumber,
        shipTo: order.meta.shipTo ?? null,
        lines: parcel.lines,
        carrierRef: booked[i].carrierRef,
      })),
      now,
    );
    return result(await shipped(ctx, parcels, recorded, now));
  },
  // The HTTP carrier never booked (final failure, or cancelled while the request was out): the stock this step reserved goes back.
  async abandon(ctx): Promise<void> {
    await ctx.ports.stock.releaseNode(ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now());
  },
  compensate: cancelShipments,
  cancel: cancelShipments,
};

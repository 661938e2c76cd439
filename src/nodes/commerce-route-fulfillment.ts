// Node type `commerce.route_fulfillment`: assigns each physical line to the nearest location that can serve it.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { haversineKm } from '../domain/geo.js';
import { fulfillmentOf } from '../commerce/fulfillment.js';
import { shipToPoint, type ShipTo } from '../domain/ship-to.js';
import { chooseStockLocation } from '../domain/stock-allocation.js';

export const routeFulfillmentParams = z.strictObject({
  /** Try this kind of location first (d2c: `store`, so local stores ship before warehouses); `any` = no preference. */
  prefer: z.enum(['any', 'store', 'warehouse']).default('any'),
});

export type RouteFulfillmentParams = z.infer<typeof routeFulfillmentParams>;

export const commerceRouteFulfillment: NodeTypeDef<RouteFulfillmentParams> = {
  type: 'commerce.route_fulfillment',
  kind: 'step',
  label: 'Route fulfillment',
  description:
    'Chooses where each physical line ships from: a line\'s locationId pins it; a pickup order uses its pickup store; ' +
    'otherwise the nearest location (by the ship-to latitude/longitude) with enough free stock, preferring the `prefer` ' +
    'kind. No location able to serve a line fails without retry. Writes the choice to the line.',
  params: routeFulfillmentParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ method, locationId (when all lines share one), assignments: [{ lineNo, sku, locationId, distanceKm, pinned }] }',
  vars: 'vars.fulfillment = { method, locationId }',
  async run(ctx): Promise<StepResult> {
    const { order, params } = ctx;
    const fulfillment = fulfillmentOf(order.input);
    const point = shipToPoint(order.meta.shipTo as ShipTo | undefined);
    const { stock, orderLines } = ctx.ports;
    const { physical } = await stock.orderStockLines(order.id);
    const candidates = await stock.candidates(physical.map((p) => p.line.sku));
    const assignments: { lineNo: number; sku: string; locationId: string; distanceKm: number | null; pinned: boolean }[] = [];
    for (const { line } of physical) {
      const pinned = line.locationId ?? (fulfillment.method === 'pickup' ? fulfillment.locationId : null);
      const options = candidates.get(line.sku) ?? [];
      let choice = pinned ? options.find((c) => c.locationId === pinned) ?? null : null;
      if (!pinned) {
        const preferred = params.prefer === 'any' ? options : options.filter((c) => c.kind === params.prefer);
        choice = chooseStockLocation(preferred, line.qty, point) ?? chooseStockLocation(options, line.qty, point);
        if (!choice) throw new TerminalError(`Out of stock: no location has ${line.sku} x ${line.qty}`, 'out_of_stock');
        choice.available -= line.qty;
        await orderLines.setLocation(order.id, line.lineNo, choice.locationId);
      }
      const locationId = choice?.locationId ?? pinned!;
      const distanceKm = point && choice ? Math.round(haversineKm(point, choice) * 10) / 10 : null;
      assignments.push({ lineNo: line.lineNo, sku: line.sku, locationId, distanceKm, pinned: pinned !== null });
    }
    const locations = [...new Set(assignments.map((a) => a.locationId))];
    const locationId = locations.length === 1 ? locations[0] : fulfillment.locationId;
    return {
      branch: 'ok',
      output: { method: fulfillment.method, locationId, assignments },
      vars: { fulfillment: { method: fulfillment.method, locationId } },
      summary: assignments.length
        ? `${fulfillment.method === 'pickup' ? 'Pickup at' : 'Ships from'} ${locations.join(', ')}`
        : 'Nothing physical to route',
    };
  },
};

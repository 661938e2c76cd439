// The stock and shipping steps run on their typed ports alone (issue 29): no SQL client (the context's tx throws), only ctx.ports.
import { describe, expect, it } from 'vitest';
import { stepContext, testOrder } from './step-context.js';
import type { StepPorts } from '../../../src/engine/step-store.js';
import type { ExternalCall, StepResult } from '../../../src/engine/node-type.js';
import type { CommerceSettings } from '../../../src/commerce/workspace-settings.js';
import type { OrderLineRow } from '../../../src/commerce/order-lines-repo.js';
import type { ProductRow } from '../../../src/commerce/catalogue-repo.js';
import type { StockCandidate } from '../../../src/domain/stock-allocation.js';
import { commerceRouteFulfillment } from '../../../src/nodes/commerce-route-fulfillment.js';
import { commerceDeliverDigital } from '../../../src/nodes/commerce-deliver-digital.js';
import { commerceShip } from '../../../src/nodes/commerce-ship.js';
import { TerminalError } from '../../../src/domain/errors.js';

/** Ports with only the given members: touching any other port throws (the step needs no more than these). */
function portsWith(given: Record<string, Record<string, unknown>>): StepPorts {
  return new Proxy(given, {
    get(target, port: string) {
      if (!(port in target)) throw new Error(`the step touched the port ${port}`);
      return target[port];
    },
  }) as unknown as StepPorts;
}

const line = (lineNo: number, sku: string, qty: number, locationId: string | null = null): OrderLineRow => ({
  lineNo, sku, name: null, qty, unitPriceMinor: 100, sellerId: null, locationId, dropped: false,
});
const product = (sku: string, digital = false): ProductRow => ({ sku, name: sku, priceMinor: 100, sellerId: null, reorderPoint: 0, reorderQty: null, digital });
const candidate = (locationId: string, kind: StockCandidate['kind'], available: number, latitude: number, longitude: number): StockCandidate => ({ locationId, kind, available, latitude, longitude });
const settings = (carrier: CommerceSettings['adapters']['carrier']): CommerceSettings => ({
  exchangeRates: { USD: 1 }, taxRate: 0, returnWindowDays: 14, fraudThreshold: 80, adapters: { payments: null, carrier },
});

describe('commerce.route_fulfillment on its ports', () => {
  const NYC = { latitude: 40.73, longitude: -73.99 };
  const stockOf = (lines: OrderLineRow[]) => ({
    orderStockLines: async () => ({ physical: lines.map((l) => ({ line: l, product: product(l.sku) })), digital: [], untracked: [] }),
    candidates: async () => new Map([
      ['MUG-1', [candidate('wh_nj', 'warehouse', 10, 40.7, -74.2), candidate('store_soho', 'store', 3, 40.72, -74.0), candidate('store_sf', 'store', 9, 37.79, -122.4)]],
    ]),
  });

  it('writes the nearest preferred location of each unpinned line; a pinned line keeps its location and is not written', async () => {
    const writes: unknown[] = [];
    const orderLines = { setLocation: async (...args: unknown[]) => void writes.push(args) };
    const ctx = stepContext({ prefer: 'store' as const }, {
      order: testOrder({ meta: { shipTo: NYC } }),
      ports: portsWith({ stock: stockOf([line(1, 'MUG-1', 2), line(2, 'MUG-1', 1, 'store_sf')]), orderLines }),
    });
    const res = (await commerceRouteFulfillment.run!(ctx)) as StepResult;
    expect(writes).toEqual([['ord_1', 1, 'store_soho']]);
    expect(res.output).toMatchObject({
      method: 'ship',
      assignments: [
        { lineNo: 1, sku: 'MUG-1', locationId: 'store_soho', pinned: false },
        { lineNo: 2, sku: 'MUG-1', locationId: 'store_sf', pinned: true, distanceKm: expect.any(Number) },
      ],
    });
  });

  it('no location with enough free units: out_of_stock without retry, nothing written', async () => {
    const writes: unknown[] = [];
    const ctx = stepContext({ prefer: 'any' as const }, {
      ports: portsWith({ stock: stockOf([line(1, 'MUG-1', 50)]), orderLines: { setLocation: async (...args: unknown[]) => void writes.push(args) } }),
    });
    const err = await Promise.resolve(commerceRouteFulfillment.run!(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TerminalError);
    expect(err).toMatchObject({ code: 'out_of_stock', message: 'Out of stock: no location has MUG-1 x 50' });
    expect(writes).toEqual([]);
  });
});

describe('commerce.deliver_digital on its ports', () => {
  it('asks for one code per unit of the digital lines only and shows them masked', async () => {
    const asked: unknown[] = [];
    const ctx = stepContext({}, {
      nodeId: 'digital',
      order: testOrder({ generation: 2 }),
      ports: portsWith({
        stock: { orderStockLines: async () => ({ physical: [{ line: line(1, 'MUG-1', 1), product: product('MUG-1') }], digital: [{ line: line(2, 'GIFT-50', 2), product: product('GIFT-50', true) }], untracked: [] }) },
        digitalGoods: {
          issue: async (codes: { lines: { lineNo: number; sku: string; qty: number }[] }, now: number) => {
            asked.push([codes, now]);
            return [{ lineNo: 2, sku: 'GIFT-50', code: 'ABCD-EFGH-JKMN-PQRS' }, { lineNo: 2, sku: 'GIFT-50', code: 'TUVW-XYZ2-3456-789A' }];
          },
        },
      }),
    });
    const res = (await commerceDeliverDigital.run!(ctx)) as StepResult;
    expect(asked).toEqual([[{ orderId: 'ord_1', generation: 2, nodeId: 'digital', lines: [{ lineNo: 2, sku: 'GIFT-50', qty: 2 }] }, 1_000]]);
    expect(res.output).toEqual({ codes: [{ lineNo: 2, sku: 'GIFT-50', code: '****-****-****-PQRS' }, { lineNo: 2, sku: 'GIFT-50', code: '****-****-****-789A' }] });
    expect(res.emit).toEqual({ event: 'order.delivered' });
  });
});

describe('commerce.ship undo on its ports', () => {
  const undo = async (opts: { http: boolean; othersLive: boolean }) => {
    const calls: string[] = [];
    const shipments = {
      liveOfNode: async () => {
        calls.push('liveOfNode');
        return [{ id: 'shp_1', carrierRef: opts.http ? 'remote_1' : null }, { id: 'shp_2', carrierRef: opts.http ? 'remote_2' : null }];
      },
      cancel: async (id: string) => void calls.push(`cancel ${id}`),
      anyLive: async () => (calls.push('anyLive'), opts.othersLive),
      cancelledOfRun: async () => (calls.push('cancelledOfRun'), ['shp_0', 'shp_1', 'shp_2']),
    };
    const stock = { restockShipments: async (ids: string[]) => (calls.push(`restock ${ids.join(',')}`), ids.length) };
    const carrier = opts.http ? { url: 'https://carrier.example', secret: null, timeoutMs: 5000 } : null;
    const ctx = stepContext({ service: 'ground' as const }, { ports: portsWith({ shipments, stock, settings: { read: async () => settings(carrier) } }) });
    const out = (await commerceShip.compensate!(ctx)) as ExternalCall | undefined;
    return { calls, out };
  };

  it('cancels the node\'s live shipments, then restocks every cancelled one of the run once none is live', async () => {
    const { calls, out } = await undo({ http: false, othersLive: false });
    expect(calls).toEqual(['liveOfNode', 'cancel shp_1', 'cancel shp_2', 'anyLive', 'cancelledOfRun', 'restock shp_0,shp_1,shp_2']);
    expect(out).toBeUndefined();
  });

  it('another shipment of the run still live: nothing goes back on the shelf yet', async () => {
    const { calls } = await undo({ http: false, othersLive: true });
    expect(calls).toEqual(['liveOfNode', 'cancel shp_1', 'cancel shp_2', 'anyLive']);
  });

  it('with the HTTP carrier the shipments are marked cancelled here and the carrier is asked in one call after commit', async () => {
    const { out } = await undo({ http: true, othersLive: false });
    expect(out?.call).toMatchObject({ method: 'POST', url: 'https://carrier.example/shipments/cancel', body: { orderId: 'ord_1', shipments: ['remote_1', 'remote_2'] } });
  });
});

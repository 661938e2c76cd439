// The simulated commerce ports (issue 31) behave like the real ones on the data: a reservation takes units from the snapshot's
// stock (a second line of the same SKU sees what is left), a failed body leaves nothing, payments record authorizations and
// captures in memory, sequences give the next real number without taking it; a built-in flow runs end to end on them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { compileFlow } from '../../../src/engine/compiler.js';
import type { Graph } from '../../../src/engine/graph.js';
import { SimulatedRun } from '../../../src/engine/simulation/simulated-run.js';
import { SimulationBudget } from '../../../src/engine/simulation/simulation-budget.js';
import { builtinNodeTypes } from '../../../src/nodes/builtin-node-types.js';
import { simulatedCommerceWorld } from '../../../src/commerce/simulated-ports/simulated-commerce-ports.js';
import type { CommerceSnapshot } from '../../../src/commerce/simulated-ports/commerce-snapshot.js';
import { SliceFacts } from '../../../src/engine/run/slice-facts.js';
import { asCommerceFacts } from '../../../src/commerce/commerce-order.js';
import { newOrderRow, T0 } from '../engine/decide-driver.js';

/** The world's ports with a simulated order's facts held beside them, as a simulated run builds them. */
const portsOf = (w: ReturnType<typeof simulatedCommerceWorld>) => w.ports(new SliceFacts('sim_1', {}));

const NONE = new Set<never>();

function snapshot(over: Partial<CommerceSnapshot> = {}): CommerceSnapshot {
  return {
    settings: { exchangeRates: { USD: 1 }, taxRate: 0, returnWindowDays: 14, fraudThreshold: 70, adapters: { payments: null, carrier: null } },
    products: [
      { sku: 'MUG-1', name: 'Mug', priceMinor: 1250, sellerId: null, reorderPoint: 20, reorderQty: 100, digital: false },
      { sku: 'GIFT-50', name: 'Gift card', priceMinor: 5000, sellerId: null, reorderPoint: 0, reorderQty: null, digital: true },
    ],
    skus: ['GIFT-50', 'MUG-1'],
    sellers: [],
    locations: [
      { id: 'loc_main', name: 'Main', kind: 'warehouse', latitude: 40.7, longitude: -74.1 },
      { id: 'store_soho', name: 'SoHo', kind: 'store', latitude: 40.72, longitude: -74 },
    ],
    stock: [
      { sku: 'MUG-1', locationId: 'loc_main', onHand: 5, reserved: 1 },
      { sku: 'MUG-1', locationId: 'store_soho', onHand: 3, reserved: 0 },
    ],
    operatorEmails: ['ops@shop.example'],
    customers: [],
    customerOpenInvoices: [],
    nextInvoiceNumber: 1001,
    nextPurchaseOrderNumber: 5001,
    ...over,
  };
}

const order = (lines: { sku: string; qty: number; unitPriceMinor?: number | null; locationId?: string | null }[]) => ({
  orderId: 'sim_1',
  lines: lines.map((l) => ({ sku: l.sku, name: null, qty: l.qty, unitPriceMinor: l.unitPriceMinor ?? 1250, sellerId: null, locationId: l.locationId ?? null })),
  documentText: null,
});
const stockOrder = { id: 'sim_1', generation: 1, input: {}, meta: {} };

describe('stock', () => {
  it('a reservation takes free units at the best location (warehouse first), and candidates see what is left', async () => {
    const w = simulatedCommerceWorld(snapshot(), order([{ sku: 'MUG-1', qty: 3 }, { sku: 'MUG-1', qty: 2 }]));
    const { created } = await w.atomically(() => portsOf(w).stock.reserveOrder(stockOrder, 'reserve', T0));
    // Main has 4 free: the first line takes 3 there; the second sees 1 left and goes to the store.
    expect(created.map((r) => [r.lineNo, r.locationId, r.qty])).toEqual([
      [1, 'loc_main', 3],
      [2, 'store_soho', 2],
    ]);
    const free = await portsOf(w).stock.candidates(['MUG-1']);
    expect(free.get('MUG-1')?.map((c) => [c.locationId, c.available])).toEqual([
      ['loc_main', 1],
      ['store_soho', 1],
    ]);
    // Reserving again holds nothing more (each line is covered once per run).
    expect((await portsOf(w).stock.reserveOrder(stockOrder, 'reserve', T0)).created).toEqual([]);
    // Shipping consumes the main warehouse's units: on hand and reserved both drop; releasing frees the rest.
    const main = created.filter((r) => r.locationId === 'loc_main').map((r) => r.id);
    await portsOf(w).stock.consume(main, { shipmentId: 'shp_1' }, T0);
    expect(w.ledger.level('MUG-1', 'loc_main')).toMatchObject({ onHand: 2, reserved: 1 });
    await portsOf(w).stock.release('sim_1', 1, T0);
    expect(w.ledger.level('MUG-1', 'store_soho')).toMatchObject({ onHand: 3, reserved: 0 });
    expect(await portsOf(w).stock.restockShipments(['shp_1'], T0)).toBe(3);
    expect(w.ledger.level('MUG-1', 'loc_main')).toMatchObject({ onHand: 5, reserved: 1 });
  });

  it('more than any location holds is out of stock (a terminal error) and the failed body leaves the stock as it was', async () => {
    const w = simulatedCommerceWorld(snapshot(), order([{ sku: 'MUG-1', qty: 1 }, { sku: 'MUG-1', qty: 9 }]));
    const err = await w.atomically(() => portsOf(w).stock.reserveOrder(stockOrder, 'reserve', T0)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'out_of_stock', message: 'Out of stock: MUG-1 x 9' });
    expect(w.ledger.reservations).toEqual([]);
    expect(w.ledger.level('MUG-1', 'loc_main')).toMatchObject({ onHand: 5, reserved: 1 });
    const simulated = await portsOf(w).stock.reserveOrder({ ...stockOrder, meta: { simulate: 'out_of_stock' } }, 'reserve', T0).catch((e: unknown) => e);
    expect(simulated).toMatchObject({ message: 'Out of stock: MUG-1 (simulated out_of_stock)' });
  });
});

describe('payments, numbers and messages', () => {
  it('an authorization is captured in part (the rest released); a captured one is not capturable again; card_declined refuses', async () => {
    const w = simulatedCommerceWorld(snapshot(), order([{ sku: 'MUG-1', qty: 1 }]));
    const { payments } = portsOf(w);
    const auth = await payments.authorize({ orderId: 'sim_1', generation: 1, nodeId: 'authorize', amountMinor: 3000, currency: 'USD', simulate: NONE }, T0);
    expect(auth).toMatchObject({ status: 'authorized', amountMinor: 3000 });
    expect(await payments.latestOpenAuthorization('sim_1', 1)).toMatchObject({ id: auth.id, amountMinor: 3000 });
    expect(await payments.capture({ authorizationId: auth.id, generation: 1, nodeId: 'capture', amountMinor: 2000, simulate: NONE }, T0)).toMatchObject({ capturedMinor: 2000, releasedMinor: 1000 });
    await expect(payments.capture({ authorizationId: auth.id, generation: 1, nodeId: 'capture', amountMinor: 1, simulate: NONE }, T0)).rejects.toThrow(`Authorization ${auth.id} is captured, not capturable`);
    expect(await payments.refundableChargesOfOrder('sim_1')).toEqual([expect.objectContaining({ openMinor: 2000 })]);
    await payments.refund({ orderId: 'sim_1', nodeId: 'refund', chargeId: w.ledger.charges[0].id, amountMinor: 500, currency: 'USD', reason: null, simulate: NONE }, T0);
    expect(await payments.refundedMinor('sim_1')).toBe(500);
    await expect(payments.authorize({ orderId: 'sim_1', generation: 1, nodeId: 'authorize', amountMinor: 1, currency: 'USD', simulate: new Set(['card_declined'] as const) }, T0)).rejects.toMatchObject({ code: 'card_declined' });
  });

  it('an invoice takes the next number the sequence would give, and a failed body gives it back', async () => {
    const w = simulatedCommerceWorld(snapshot(), order([{ sku: 'MUG-1', qty: 1 }]));
    const invoice = { orderId: 'sim_1', generation: 1, nodeId: 'invoice', customerId: null, amountMinor: 100, currency: 'USD', termsDays: 30, dueAt: T0 };
    await w
      .atomically(async () => {
        await portsOf(w).invoices.issue(invoice, T0);
        throw new Error('after numbering');
      })
      .catch(() => undefined);
    expect(w.ledger.invoices).toEqual([]);
    expect(await portsOf(w).invoices.issue(invoice, T0)).toMatchObject({ number: 'INV-1001' });
    expect(await portsOf(w).notifications.queue({ orderId: 'sim_1', nodeId: 'n', audience: 'operations', subject: 's', body: 'b', recipients: [{ recipient: 'ops', address: 'ops@shop.example' }] }, T0)).toHaveLength(1);
    expect(await portsOf(w).people.operatorEmails()).toEqual(['ops@shop.example']);
  });
});

describe('a built-in flow on the simulated ports', () => {
  it('tpl-storefront-order runs to completed: priced, authorized, reserved at the warehouse, shipped (units off the shelf), captured, confirmed', async () => {
    const spec = JSON.parse(readFileSync('machines/tpl-storefront-order.json', 'utf8')) as { graph: Graph };
    const flow = compileFlow('tpl-storefront-order@1', spec.graph, createCatalogue(builtinNodeTypes));
    const w = simulatedCommerceWorld(snapshot(), order([{ sku: 'MUG-1', qty: 2, unitPriceMinor: null }]));
    const run = new SimulatedRun(flow, newOrderRow({ id: 'sim_1', flowId: 'tpl-storefront-order' }, { model: 'b2c', total: 0, subtotal: 0, contactEmail: 'ada@example.com' }), w, new SimulationBudget());
    await run.play([]);
    const { order: o, nodes } = run.runState;
    expect(o.status).toBe('completed');
    // The price step re-totalled the order through its port (orderLines.setTotals): the run's facts carry the new total.
    expect(asCommerceFacts(o.facts).total).toBe(2500);
    expect(run.path).toEqual(['start', 'price', 'fraud', 'po_box', 'authorize', 'reserve', 'ship', 'capture', 'digital', 'confirm', 'completed']);
    expect(nodes.get('ship')?.output).toMatchObject({ shipments: [expect.objectContaining({ locationId: 'loc_main', carrier: 'Demo Parcel' })] });
    expect(w.ledger.level('MUG-1', 'loc_main')).toMatchObject({ onHand: 3, reserved: 1 });
    expect(w.ledger.authorizations).toEqual([expect.objectContaining({ status: 'captured', capturedMinor: 2500 })]);
    expect(w.ledger.notifications).toEqual([expect.objectContaining({ audience: 'customer', address: 'ada@example.com' })]);
    expect(run.events.map((e) => e.event)).toEqual(['order.shipped', 'order.paid', 'order.completed']);
  });
});

// Port `stock` in a simulation: reservations against the in-memory stock levels, chosen by the same rules as the real reservation.
import { newCommerceId } from '../../domain/commerce-ids.js';
import { TerminalError } from '../../domain/errors.js';
import { shipToPoint, type ShipTo } from '../../domain/ship-to.js';
import { simulateSwitches } from '../../domain/simulate.js';
import { chooseStockLocation, type StockCandidate } from '../../domain/stock-allocation.js';
import { fulfillmentOf } from '../fulfillment.js';
import { classifyStockLines, type OrderStockLines } from '../stock-lines.js';
import type { ReservationRow } from '../stock-repo.js';
import type { StockPort } from '../ports/stock-port.js';
import type { SimReservation, SimulatedLedger } from './simulated-ledger.js';

/** The statuses that hold (or held) the order's goods in a run: what a reserving step looks for first. */
const HELD: readonly string[] = ['reserved', 'consumed'];

function toReservation(r: SimReservation): ReservationRow {
  return { id: r.id, lineNo: r.lineNo, sku: r.sku, locationId: r.locationId, qty: r.qty, status: r.status, shipmentId: r.shipmentId, pickupId: r.pickupId };
}

/** Line order, then the order they were made in (the real read: line_no, created_at, id). */
function inLineOrder(rows: readonly SimReservation[]): SimReservation[] {
  return rows.map((r, i) => ({ r, i })).sort((a, b) => a.r.lineNo - b.r.lineNo || a.i - b.i).map(({ r }) => r);
}

export function simulatedStockPort(ledger: SimulatedLedger): StockPort {
  const stockLines = (orderId: string): OrderStockLines =>
    classifyStockLines(
      ledger.linesOf(orderId).filter((l) => !l.dropped).sort((a, b) => a.lineNo - b.lineNo),
      ledger.products,
    );

  /** Free stock (on hand minus reserved) of each SKU per known location, with its kind and coordinates. */
  const candidates = (skus: readonly string[]): Map<string, StockCandidate[]> => {
    const out = new Map<string, StockCandidate[]>();
    for (const sku of new Set(skus))
      for (const level of ledger.levelsOf(sku)) {
        const location = ledger.locations.get(level.locationId);
        if (!location) continue;
        const list = out.get(sku) ?? [];
        list.push({ locationId: location.id, kind: location.kind, latitude: location.latitude, longitude: location.longitude, available: level.onHand - level.reserved });
        out.set(sku, list);
      }
    return out;
  };

  const ofRun = (orderId: string, generation: number, statuses?: readonly string[]) =>
    inLineOrder(ledger.reservations.filter((r) => r.orderId === orderId && r.generation === generation && (!statuses || statuses.includes(r.status))));

  /** Changes reservations' status and moves the stock they account for (the real settleReservations). */
  const settle = (rows: readonly SimReservation[], status: SimReservation['status'], move: { onHand: number; reserved: number }, link: Partial<Pick<SimReservation, 'shipmentId' | 'pickupId'>> = {}) => {
    for (const r of rows) {
      ledger.patch(r, { status, ...link });
      ledger.moveStock(r.sku, r.locationId, { onHand: move.onHand * r.qty, reserved: move.reserved * r.qty });
    }
    return inLineOrder(rows).map(toReservation);
  };

  /** The held reservations among `ids` become consumed, linked to what took them. */
  const consume = (ids: readonly string[], link: { shipmentId?: string; pickupId?: string }) => {
    const rows = ledger.reservations.filter((r) => ids.includes(r.id) && r.status === 'reserved');
    const keep: Partial<Pick<SimReservation, 'shipmentId' | 'pickupId'>> = {};
    if (link.shipmentId !== undefined) keep.shipmentId = link.shipmentId;
    if (link.pickupId !== undefined) keep.pickupId = link.pickupId;
    settle(rows, 'consumed', { onHand: -1, reserved: -1 }, keep);
  };
  return {
    // A return's units back on the shelf, and their undo: the stock receipts of the simulated ledger, as a purchase's.
    restockReturned: (receipt) => {
      ledger.moveStock(receipt.sku, receipt.locationId, { onHand: receipt.qty });
      ledger.insert(ledger.stockReceipts, { ...receipt, id: newCommerceId('rcv'), status: 'received' });
      return Promise.resolve();
    },
    reverseRestock: (orderId, generation, nodeId) => {
      for (const r of ledger.stockReceipts.filter((x) => x.orderId === orderId && x.generation === generation && x.nodeId === nodeId && x.status === 'received')) {
        const level = ledger.level(r.sku, r.locationId);
        if (!level || level.onHand - level.reserved < r.qty) throw new Error(`Cannot take back ${r.qty} x ${r.sku} at ${r.locationId}: already reserved or sold`);
        ledger.patch(r, { status: 'reversed' });
        ledger.moveStock(r.sku, r.locationId, { onHand: -r.qty });
      }
      return Promise.resolve();
    },
    orderStockLines: (orderId) => Promise.resolve(stockLines(orderId)),
    candidates: (skus) => Promise.resolve(candidates(skus)),
    reserveOrder: async (order, nodeId) => {
      const { physical, untracked } = stockLines(order.id);
      if (simulateSwitches(order.meta).has('out_of_stock') && physical.length > 0)
        throw new TerminalError(`Out of stock: ${physical[0].line.sku} (simulated out_of_stock)`, 'out_of_stock');
      const existing = ofRun(order.id, order.generation, HELD);
      const covered = new Set(existing.map((r) => r.lineNo));
      const todo = physical.filter(({ line }) => !covered.has(line.lineNo));
      const options = candidates(todo.map(({ line }) => line.sku));
      const fulfillment = fulfillmentOf(order.input);
      const point = shipToPoint(order.meta.shipTo as ShipTo | undefined);
      const wanted: { lineNo: number; sku: string; locationId: string; qty: number; where: string }[] = [];
      for (const { line } of todo) {
        const pinned = line.locationId ?? (fulfillment.method === 'pickup' ? fulfillment.locationId : null);
        const list = options.get(line.sku) ?? [];
        const choice = pinned ? (list.find((c) => c.locationId === pinned && c.available >= line.qty) ?? null) : chooseStockLocation(list, line.qty, point);
        const where = pinned ? ` at ${pinned}` : '';
        if (!choice) throw new TerminalError(`Out of stock: ${line.sku} x ${line.qty}${where}`, 'out_of_stock');
        choice.available -= line.qty; // a second line of the same SKU sees what is left
        wanted.push({ lineNo: line.lineNo, sku: line.sku, locationId: choice.locationId, qty: line.qty, where });
      }
      // The real statement holds each (SKU, location) only where all the units asked of it are free; a line it cannot hold fails the step.
      const key = (w: { sku: string; locationId: string }) => `${w.sku}\u0000${w.locationId}`;
      const asked = new Map<string, number>();
      for (const w of wanted) asked.set(key(w), (asked.get(key(w)) ?? 0) + w.qty);
      const short = wanted.find((w) => {
        const level = ledger.level(w.sku, w.locationId);
        return !level || level.onHand - level.reserved < (asked.get(key(w)) ?? 0);
      });
      if (short) throw new TerminalError(`Out of stock: ${short.sku} x ${short.qty}${short.where}`, 'out_of_stock');
      const created = wanted.map((w) => {
        ledger.moveStock(w.sku, w.locationId, { reserved: w.qty });
        return ledger.insert(ledger.reservations, {
          id: newCommerceId('res'),
          orderId: order.id,
          generation: order.generation,
          nodeId,
          lineNo: w.lineNo,
          sku: w.sku,
          locationId: w.locationId,
          qty: w.qty,
          status: 'reserved' as const,
          shipmentId: null,
          pickupId: null,
        });
      });
      return { created: inLineOrder(created).map(toReservation), all: [...existing, ...inLineOrder(created)].map(toReservation), untracked: untracked.map((l) => l.sku) };
    },
    reservations: (orderId, generation, statuses) => Promise.resolve(ofRun(orderId, generation, statuses).map(toReservation)),
    release: (orderId, generation) => Promise.resolve(settle(ofRun(orderId, generation, ['reserved']), 'released', { onHand: 0, reserved: -1 })),
    releaseNode: (orderId, generation, nodeId) =>
      Promise.resolve(settle(ofRun(orderId, generation, ['reserved']).filter((r) => r.nodeId === nodeId), 'released', { onHand: 0, reserved: -1 })),
    consume: (ids, link) => {
      consume(ids, link);
      return Promise.resolve();
    },
    consumeShipped: (parcels) => {
      for (const p of parcels) consume(p.reservationIds, { shipmentId: p.shipmentId });
      return Promise.resolve();
    },
    linkPickup: (ids, pickupId) => {
      for (const r of ledger.reservations) if (ids.includes(r.id)) ledger.patch(r, { pickupId });
      return Promise.resolve();
    },
    restockShipments: (shipmentIds) => {
      const rows = ledger.reservations.filter((r) => r.shipmentId !== null && shipmentIds.includes(r.shipmentId) && r.status === 'consumed');
      settle(rows, 'restocked', { onHand: 1, reserved: 0 });
      return Promise.resolve(rows.reduce((n, r) => n + r.qty, 0));
    },
  };
}

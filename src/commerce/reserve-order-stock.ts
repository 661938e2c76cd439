// Reserving an order's physical lines: pinned location, else the pickup store, else the nearest/best stocked location.
import type { Queryable } from '../db/db.js';
import type { StepStore } from '../engine/step-store.js';
import { productsBySku } from './catalogue-repo.js';
import { TerminalError } from '../domain/errors.js';
import { fulfillmentOf } from './fulfillment.js';
import { readOrderLines } from './order-lines-repo.js';
import { shipToPoint, type ShipTo } from '../domain/ship-to.js';
import { simulateSwitches } from '../domain/simulate.js';
import { chooseStockLocation } from '../domain/stock-allocation.js';
import { classifyStockLines, type OrderStockLines } from './stock-lines.js';
import { HELD_STATUSES, reservationsOf, reserveAll, stockCandidates, type ReservationRequest, type ReservationRow } from './stock-repo.js';

/** What a stock step needs to know about the order. */
export interface StockOrder {
  id: string;
  generation: number;
  input: Record<string, unknown>;
  meta: Record<string, unknown>;
}

/** What reserving the order did: the reservations it wrote, every one the run holds (or consumed) now, the SKUs not stock-tracked. */
export interface OrderReservation {
  created: ReservationRow[];
  all: ReservationRow[];
  untracked: string[];
}

/** The order's lines (in a slice, through its read cache) sorted by what their catalogue product is. */
export async function orderStockLines(q: Queryable, orderId: string): Promise<OrderStockLines> {
  const lines = await readOrderLines(q, orderId);
  const products = await productsBySku(q, lines.map((l) => l.sku));
  return classifyStockLines(lines, products);
}

/**
 * Reserves every physical line that holds no reservation in this run yet; lines already
 * reserved (or consumed) are left as they are, so the step can run again without doubling.
 * `meta.simulate: out_of_stock` or a line no location can serve fails without retry.
 * Reads through `store.reader`; the one write (reserveAll) goes through `store.checkedWriter`: a line it could not
 * hold fails the step after it, so the step's savepoint comes before it.
 */
export async function reserveOrderStock(store: Pick<StepStore, 'reader' | 'checkedWriter'>, order: StockOrder, nodeId: string, now: number): Promise<OrderReservation> {
  const q = store.reader;
  const { physical, untracked } = await orderStockLines(q, order.id);
  if (simulateSwitches(order.meta).has('out_of_stock') && physical.length > 0)
    throw new TerminalError(`Out of stock: ${physical[0].line.sku} (simulated out_of_stock)`, 'out_of_stock');
  const existing = await reservationsOf(q, order.id, order.generation, HELD_STATUSES);
  const covered = new Set(existing.map((r) => r.lineNo));
  const todo = physical.filter(({ line }) => !covered.has(line.lineNo));
  const candidates = await stockCandidates(q, todo.map(({ line }) => line.sku));
  const fulfillment = fulfillmentOf(order.input);
  const point = shipToPoint(order.meta.shipTo as ShipTo | undefined);
  const wanted: (ReservationRequest & { where: string })[] = [];
  for (const { line } of todo) {
    const pinned = line.locationId ?? (fulfillment.method === 'pickup' ? fulfillment.locationId : null);
    const options = candidates.get(line.sku) ?? [];
    const choice = pinned ? options.find((c) => c.locationId === pinned && c.available >= line.qty) ?? null : chooseStockLocation(options, line.qty, point);
    const where = pinned ? ` at ${pinned}` : '';
    if (!choice) throw new TerminalError(`Out of stock: ${line.sku} x ${line.qty}${where}`, 'out_of_stock');
    choice.available -= line.qty; // a second line of the same SKU sees what is left
    wanted.push({ lineNo: line.lineNo, sku: line.sku, locationId: choice.locationId, qty: line.qty, where });
  }
  // One statement holds every line; a line it could not hold (taken meanwhile) fails the step.
  const created = await reserveAll(store.checkedWriter, { orderId: order.id, generation: order.generation, nodeId }, wanted, now);
  const held = new Set(created.map((r) => r.lineNo));
  const short = wanted.find((w) => !held.has(w.lineNo));
  if (short) throw new TerminalError(`Out of stock: ${short.sku} x ${short.qty}${short.where}`, 'out_of_stock');
  return { created, all: [...existing, ...created], untracked: untracked.map((l) => l.sku) };
}

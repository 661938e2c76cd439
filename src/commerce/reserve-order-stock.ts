// Reserving an order's physical lines: pinned location, else the pickup store, else the nearest/best stocked location.
import type { Queryable } from '../db/db.js';
import { productsBySku, type ProductRow } from './catalogue-repo.js';
import { TerminalError } from '../domain/errors.js';
import { readOrderLines, type OrderLineRow } from './order-lines-repo.js';
import { shipToPoint, type ShipTo } from '../domain/ship-to.js';
import { simulateSwitches } from '../domain/simulate.js';
import { chooseStockLocation } from '../domain/stock-allocation.js';
import { HELD_STATUSES, reservationsOf, reserveAll, stockCandidates, type ReservationRequest, type ReservationRow } from './stock-repo.js';

/** What a stock step needs to know about the order. */
export interface StockOrder {
  id: string;
  generation: number;
  input: Record<string, unknown>;
  meta: Record<string, unknown>;
}

export interface OrderStockLines {
  /** Lines with a catalogue product that is not digital: they need units on a shelf. */
  physical: { line: OrderLineRow; product: ProductRow }[];
  /** Lines of digital products (codes, not stock). */
  digital: { line: OrderLineRow; product: ProductRow }[];
  /** SKUs not in the catalogue: not stock-tracked. */
  untracked: OrderLineRow[];
}

export async function orderStockLines(q: Queryable, orderId: string): Promise<OrderStockLines> {
  const lines = await readOrderLines(q, orderId);
  const products = await productsBySku(q, lines.map((l) => l.sku));
  const out: OrderStockLines = { physical: [], digital: [], untracked: [] };
  for (const line of lines) {
    const product = products.get(line.sku);
    if (!product) out.untracked.push(line);
    else (product.digital ? out.digital : out.physical).push({ line, product });
  }
  return out;
}

/** `input.fulfillment` as far as stock cares. */
export function fulfillmentOf(input: Record<string, unknown>): { method: string; locationId: string | null } {
  const f = input.fulfillment as { method?: unknown; locationId?: unknown } | undefined;
  return {
    method: typeof f?.method === 'string' ? f.method : 'ship',
    locationId: typeof f?.locationId === 'string' ? f.locationId : null,
  };
}

/**
 * Reserves every physical line that holds no reservation in this run yet; lines already
 * reserved (or consumed) are left as they are, so the step can run again without doubling.
 * `meta.simulate: out_of_stock` or a line no location can serve fails without retry.
 */
export async function reserveOrderStock(q: Queryable, order: StockOrder, nodeId: string, now: number): Promise<{ created: ReservationRow[]; all: ReservationRow[]; untracked: string[] }> {
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
  const created = await reserveAll(q, { orderId: order.id, generation: order.generation, nodeId }, wanted, now);
  const held = new Set(created.map((r) => r.lineNo));
  const short = wanted.find((w) => !held.has(w.lineNo));
  if (short) throw new TerminalError(`Out of stock: ${short.sku} x ${short.qty}${short.where}`, 'out_of_stock');
  return { created, all: [...existing, ...created], untracked: untracked.map((l) => l.sku) };
}

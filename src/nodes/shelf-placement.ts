// Where the units of an order's lines go on the shelf (commerce.restock, commerce.receive_stock): each catalogue line at
// its own location, else the order's fulfillment location, else the first warehouse; digital and non-catalogue lines are
// not stocked.
import type { StepContext } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { fulfillmentOf } from '../commerce/fulfillment.js';

/** Units of one SKU put at one location. */
export interface ShelfLine {
  sku: string;
  locationId: string;
  qty: number;
}

export interface ShelfPlacementRule {
  /**
   * How a line's own location counts when the catalogue does not know it: `binding` fails the step (goods are
   * received where the purchase line says), `preferred` falls back (a returned unit goes where it can).
   */
  lineLocation: 'binding' | 'preferred';
  /** The message of the TerminalError when a line has no known location. */
  noLocation: (sku: string) => string;
}

/**
 * Reads the order's lines and calls `put` for each stocked line with its location, in line order; returns what was
 * put and the SKUs not stocked. A line without a known location throws a TerminalError when its turn comes.
 */
export async function placeOnShelf(
  ctx: Pick<StepContext<unknown>, 'order' | 'ports'>,
  rule: ShelfPlacementRule,
  put: (line: ShelfLine) => Promise<void>,
): Promise<{ placed: ShelfLine[]; skipped: string[] }> {
  const { order } = ctx;
  const { orderLines, catalogue } = ctx.ports;
  const lines = await orderLines.read(order.id);
  const products = await catalogue.productsBySku(lines.map((l) => l.sku));
  const locations = await catalogue.locationsById();
  const fallback = fulfillmentOf(order.input).locationId ?? [...locations.values()].find((l) => l.kind === 'warehouse')?.id ?? null;
  const placed: ShelfLine[] = [];
  const skipped: string[] = [];
  for (const line of lines) {
    const product = products.get(line.sku);
    if (!product || product.digital) {
      skipped.push(line.sku);
      continue;
    }
    const own = rule.lineLocation === 'binding' || (line.locationId && locations.has(line.locationId)) ? line.locationId : null;
    const locationId = own ?? fallback;
    if (!locationId || !locations.has(locationId)) throw new TerminalError(rule.noLocation(line.sku));
    const shelfLine = { sku: line.sku, locationId, qty: line.qty };
    await put(shelfLine);
    placed.push(shelfLine);
  }
  return { placed, skipped };
}

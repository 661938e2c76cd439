// The order's lines and totals as the commerce steps read and change them (pricing, extraction, dropping).
import type { Queryable } from '../db/db.js';
import { cachedRows } from '../db/transaction-read-cache.js';

export interface OrderLineRow {
  lineNo: number;
  sku: string;
  name: string | null;
  qty: number;
  /** Minor units of the order currency; null until the price step fills it. */
  unitPriceMinor: number | null;
  sellerId: string | null;
  locationId: string | null;
  dropped: boolean;
}

function toLine(r: any): OrderLineRow {
  return {
    lineNo: r.line_no,
    sku: r.sku,
    name: r.name,
    qty: r.qty,
    unitPriceMinor: r.unit_price_minor === null ? null : Number(r.unit_price_minor),
    sellerId: r.seller_id,
    locationId: r.location_id,
    dropped: r.dropped,
  };
}

/** The order's lines in line order; dropped lines (rejected sellers) only when asked. */
export async function readOrderLines(q: Queryable, orderId: string, opts: { includeDropped?: boolean } = {}): Promise<OrderLineRow[]> {
  const rows = await cachedRows(q, 'order_lines', `SELECT * FROM order_lines WHERE order_id = $1 ${opts.includeDropped ? '' : 'AND NOT dropped'} ORDER BY line_no`, [
    orderId,
  ]);
  return rows.map(toLine);
}

/** A line with its price filled; throws when the price step has not run. */
export function pricedLine(line: OrderLineRow): OrderLineRow & { unitPriceMinor: number } {
  if (line.unitPriceMinor === null) throw new Error(`Line ${line.lineNo} (${line.sku}) has no price yet; run commerce.price first`);
  return line as OrderLineRow & { unitPriceMinor: number };
}

/** Sets one column of some lines in one statement (`column` and `type` are fixed here, never a caller's text). */
async function setLineValues(
  q: Queryable,
  orderId: string,
  column: 'unit_price_minor' | 'seller_id',
  type: 'bigint' | 'text',
  values: readonly { lineNo: number; value: unknown }[],
): Promise<void> {
  if (values.length === 0) return;
  await q.query(
    `UPDATE order_lines l SET ${column} = v.value
       FROM unnest($2::int[], $3::${type}[]) AS v(line_no, value)
      WHERE l.order_id = $1 AND l.line_no = v.line_no`,
    [orderId, values.map((v) => v.lineNo), values.map((v) => v.value)],
  );
}

/** Fills the lines' unit prices, one statement for all of them. */
export function setLinePrices(q: Queryable, orderId: string, prices: readonly { lineNo: number; unitPriceMinor: number }[]): Promise<void> {
  return setLineValues(q, orderId, 'unit_price_minor', 'bigint', prices.map((p) => ({ lineNo: p.lineNo, value: p.unitPriceMinor })));
}

/** Records the lines' resolved sellers (null: first party), one statement for all of them. */
export function setLineSellers(q: Queryable, orderId: string, sellers: readonly { lineNo: number; sellerId: string | null }[]): Promise<void> {
  return setLineValues(q, orderId, 'seller_id', 'text', sellers.map((s) => ({ lineNo: s.lineNo, value: s.sellerId })));
}

export async function setLineLocation(q: Queryable, orderId: string, lineNo: number, locationId: string): Promise<void> {
  await q.query('UPDATE order_lines SET location_id = $3 WHERE order_id = $1 AND line_no = $2', [orderId, lineNo, locationId]);
}

export async function dropLines(q: Queryable, orderId: string, lineNos: readonly number[]): Promise<void> {
  if (lineNos.length === 0) return;
  await q.query('UPDATE order_lines SET dropped = true WHERE order_id = $1 AND line_no = ANY($2::int[])', [orderId, [...lineNos]]);
}

/** Appends lines after the existing ones (extraction from a document). */
export async function appendLines(
  q: Queryable,
  orderId: string,
  lines: readonly { sku: string; name: string | null; qty: number; unitPriceMinor: number | null }[],
): Promise<void> {
  const { rows } = await q.query('SELECT coalesce(max(line_no), 0) AS last FROM order_lines WHERE order_id = $1', [orderId]);
  let next = Number(rows[0].last);
  for (const l of lines)
    await q.query(
      'INSERT INTO order_lines (order_id, line_no, sku, name, qty, unit_price_minor) VALUES ($1, $2, $3, $4, $5, $6)',
      [orderId, ++next, l.sku, l.name, l.qty, l.unitPriceMinor],
    );
}

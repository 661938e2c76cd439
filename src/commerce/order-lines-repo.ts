// The order's lines and totals as the commerce steps read and change them (pricing, extraction, dropping).
import type { Queryable } from '../db/db.js';
import { cachedRows, forgetRows, writeThrough, type CachedRead } from '../db/transaction-read-cache.js';

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

/** An `order_lines` row as pg returns it (bigint columns as text). */
export interface OrderLineDbRow {
  order_id: string;
  line_no: number;
  sku: string;
  name: string | null;
  qty: number;
  unit_price_minor: string | null;
  seller_id: string | null;
  location_id: string | null;
  dropped: boolean;
}

function toLine(r: OrderLineDbRow): OrderLineRow {
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
  const rows = await cachedRows<OrderLineDbRow>(q, 'order_lines', linesText(opts.includeDropped ?? false), [orderId]);
  return rows.map(toLine);
}

function linesText(includeDropped: boolean): string {
  return `SELECT * FROM order_lines WHERE order_id = $1 ${includeDropped ? '' : 'AND NOT dropped'} ORDER BY line_no`;
}

/** A new order's lines as readOrderLines would read them back (raw rows), to seed its first slice's read cache. */
export function newOrderLinesRead(orderId: string, lines: readonly { line_no: number; sku: string; name: string | null; qty: number; unit_price_minor: number | null; seller_id: string | null; location_id: string | null }[]): CachedRead {
  const rows = [...lines]
    .sort((a, b) => a.line_no - b.line_no)
    // bigint comes back from PostgreSQL as a string.
    .map((l) => ({ order_id: orderId, ...l, unit_price_minor: l.unit_price_minor === null ? null : String(l.unit_price_minor), dropped: false }));
  return { table: 'order_lines', text: linesText(false), values: [orderId], rows };
}

/** Sets one column of some lines in one statement (`column` and `type` are fixed here, never a caller's text). */
async function setLineValues(
  q: Queryable,
  orderId: string,
  column: 'unit_price_minor' | 'seller_id',
  type: 'bigint' | 'text',
  values: readonly { lineNo: number; value: string | number | null | undefined }[],
): Promise<void> {
  if (values.length === 0) return;
  // The slice's cached lines get the same values (bigint as PostgreSQL returns it: a string), so the next step reads none.
  const byLine = new Map(values.map((v) => [v.lineNo, v.value === null || v.value === undefined ? null : type === 'bigint' ? String(v.value) : v.value]));
  await writeThrough(
    q,
    'order_lines',
    `UPDATE order_lines l SET ${column} = v.value
       FROM unnest($2::int[], $3::${type}[]) AS v(line_no, value)
      WHERE l.order_id = $1 AND l.line_no = v.line_no`,
    [orderId, values.map((v) => v.lineNo), values.map((v) => v.value)],
    (row) => {
      const lineNo: unknown = row.line_no;
      if (row.order_id === orderId && typeof lineNo === 'number' && byLine.has(lineNo)) row[column] = byLine.get(lineNo);
    },
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
  forgetRows(q, 'order_lines');
}

export async function dropLines(q: Queryable, orderId: string, lineNos: readonly number[]): Promise<void> {
  if (lineNos.length === 0) return;
  await q.query('UPDATE order_lines SET dropped = true WHERE order_id = $1 AND line_no = ANY($2::int[])', [orderId, [...lineNos]]);
  forgetRows(q, 'order_lines');
}

/** Appends lines after the existing ones (extraction from a document). */
export async function appendLines(
  q: Queryable,
  orderId: string,
  lines: readonly { sku: string; name: string | null; qty: number; unitPriceMinor: number | null }[],
): Promise<void> {
  const { rows } = await q.query<{ last: number }>('SELECT coalesce(max(line_no), 0) AS last FROM order_lines WHERE order_id = $1', [orderId]);
  let next = Number(rows[0].last);
  for (const l of lines)
    await q.query(
      'INSERT INTO order_lines (order_id, line_no, sku, name, qty, unit_price_minor) VALUES ($1, $2, $3, $4, $5, $6)',
      [orderId, ++next, l.sku, l.name, l.qty, l.unitPriceMinor],
    );
  forgetRows(q, 'order_lines');
}

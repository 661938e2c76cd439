// What an order's returns stand on (contract 18): its lines as the return rules read them, its returns so far, when it was paid, the window.
import type { Queryable } from '../db/db.js';
import type { CoveredUnits, ReturnableLine } from '../domain/return-math.js';
import type { CompiledFlow } from '../engine/compiler.js';
import type { NodeRecord } from '../engine/runtime/node-record.js';
import type { OrderStatus } from '../engine/runtime/run-row.js';

/** One line of a return as `order_returns.lines` keeps it: units of the parent's line `lineNo` and their refund. */
export interface StoredReturnLine {
  lineNo: number;
  sku: string;
  sellerId: string | null;
  qty: number;
  amountMinor: number;
}

/** A return of the order, with the status of its run. */
export interface ReturnRecord {
  returnId: string;
  status: OrderStatus;
  lines: StoredReturnLine[];
  amountMinor: number;
  reason: string | null;
  createdAt: number;
}

/**
 * What the order's returns stand on: its lines (dropped ones included, each with its seller resolved:
 * the line's, else the product's, else first party), its returns oldest first, when its first payment
 * was captured or charged, and the workspace's return window in days.
 */
export interface ReturnFacts {
  lines: ReturnableLine[];
  returns: ReturnRecord[];
  capturedAt: number | null;
  windowDays: number;
}

interface ReturnableLineJson {
  lineNo: number;
  sku: string;
  name: string | null;
  qty: number;
  unitPriceMinor: number | null;
  sellerId: string | null;
  dropped: boolean;
}

/** Reads the ReturnFacts of `orderId` in one statement. */
export async function readReturnFacts(q: Queryable, orderId: string): Promise<ReturnFacts> {
  const { rows } = await q.query<{ captured_at: string | null; window_days: number | null; lines: ReturnableLineJson[]; returns: ReturnRecord[] }>(
    `SELECT (SELECT min(c.created_at) FROM payment_charges c WHERE c.order_id = $1) AS captured_at,
            (SELECT w.return_window_days FROM workspace w WHERE w.id = 1) AS window_days,
            coalesce((SELECT json_agg(json_build_object('lineNo', l.line_no, 'sku', l.sku, 'name', coalesce(l.name, p.name), 'qty', l.qty,
                                                        'unitPriceMinor', l.unit_price_minor, 'sellerId', coalesce(l.seller_id, p.seller_id),
                                                        'dropped', l.dropped) ORDER BY l.line_no)
                        FROM order_lines l LEFT JOIN products p ON p.sku = l.sku WHERE l.order_id = $1), '[]') AS lines,
            coalesce((SELECT json_agg(json_build_object('returnId', r.return_id, 'status', o.status, 'lines', r.lines, 'amountMinor', r.amount_minor,
                                                        'reason', r.reason, 'createdAt', r.created_at) ORDER BY r.created_at, r.return_id)
                        FROM order_returns r JOIN orders o ON o.id = r.return_id WHERE r.order_id = $1), '[]') AS returns`,
    [orderId],
  );
  const row = rows[0];
  return {
    lines: row.lines.map((l) => ({ ...l, unitPriceMinor: l.unitPriceMinor === null ? null : Number(l.unitPriceMinor) })),
    returns: row.returns.map((r) => ({ ...r, amountMinor: Number(r.amountMinor), createdAt: Number(r.createdAt) })),
    capturedAt: row.captured_at === null ? null : Number(row.captured_at),
    windowDays: Number(row.window_days ?? 0),
  };
}

/** The units earlier returns cover: those of every return that did not end `cancelled` (contract 18). */
export function coveredUnits(returns: readonly ReturnRecord[]): CoveredUnits[] {
  return returns.filter((r) => r.status !== 'cancelled').flatMap((r) => r.lines.map((l) => ({ lineNo: l.lineNo, qty: l.qty })));
}

/** Where each of the order's lines left from (its consumed reservations' location, the first when several): returned units go back there. */
export async function shippedFrom(q: Queryable, orderId: string): Promise<Map<number, string>> {
  const { rows } = await q.query<{ line_no: number; location_id: string }>(
    `SELECT line_no, location_id FROM stock_reservations WHERE order_id = $1 AND status = 'consumed' ORDER BY created_at, id`,
    [orderId],
  );
  const out = new Map<number, string>();
  for (const r of rows) if (!out.has(r.line_no)) out.set(r.line_no, r.location_id);
  return out;
}

/** Whether the flow's payout node (a `commerce.payout`) has run: the marketplace window is closed then. */
export function payoutState(compiled: CompiledFlow, records: ReadonlyMap<string, NodeRecord>): { hasPayoutNode: boolean; payoutRan: boolean } {
  const payouts = [...compiled.nodes].filter(([, c]) => c.def.type === 'commerce.payout').map(([id]) => id);
  return { hasPayoutNode: payouts.length > 0, payoutRan: payouts.some((id) => (records.get(id)?.runs ?? 0) > 0) };
}


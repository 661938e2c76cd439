// Goods receipts: units booked onto a location's shelf (on_hand) with a receipt row, and their reversal on undo.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';

export interface NewStockReceipt {
  orderId: string;
  generation: number;
  nodeId: string;
  sku: string;
  locationId: string;
  qty: number;
}

/** Books `qty` units of the SKU onto the location's shelf (a stock level is created when there is none) and records the receipt. */
export async function receiveStock(q: Queryable, r: NewStockReceipt, now: number): Promise<void> {
  await q.query(
    `INSERT INTO stock_levels (sku, location_id, on_hand, reserved, updated_at) VALUES ($1, $2, $3, 0, $4)
         ON CONFLICT (sku, location_id) DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand, updated_at = EXCLUDED.updated_at`,
    [r.sku, r.locationId, r.qty, now],
  );
  await q.query(
    `INSERT INTO stock_receipts (id, order_id, generation, node_id, sku, location_id, qty, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'received', $8)`,
    [newCommerceId('rcv'), r.orderId, r.generation, r.nodeId, r.sku, r.locationId, r.qty, now],
  );
}

/**
 * Reverses the receipts one node of the run booked and takes their units back off the shelf,
 * receipt by receipt. Units no longer free (reserved or sold since) cannot be taken back: that
 * throws, and the caller's transaction undoes the receipts already reversed.
 */
export async function reverseStockReceipts(q: Queryable, orderId: string, generation: number, nodeId: string, now: number): Promise<void> {
  const { rows } = await q.query<{ sku: string; location_id: string; qty: number }>(
    `UPDATE stock_receipts SET status = 'reversed', reversed_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'received' RETURNING *`,
    [orderId, generation, nodeId, now],
  );
  for (const r of rows) {
    const res = await q.query(
      'UPDATE stock_levels SET on_hand = on_hand - $3, updated_at = $4 WHERE sku = $1 AND location_id = $2 AND on_hand - reserved >= $3',
      [r.sku, r.location_id, r.qty, now],
    );
    if ((res.rowCount ?? 0) === 0) throw new Error(`Cannot take back ${r.qty} x ${r.sku} at ${r.location_id}: already reserved or sold`);
  }
}

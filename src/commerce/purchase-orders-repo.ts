// Purchase orders to suppliers: issued with the next PO-n number, received when goods are booked in, cancelled on undo.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';

export interface NewPurchaseOrder {
  orderId: string;
  generation: number;
  nodeId: string;
  supplier: string;
  /** Where the goods are to be received, or null. */
  locationId: string | null;
  lines: readonly { lineNo: number; sku: string; qty: number; unitPriceMinor: number }[];
  amountMinor: number;
  currency: string;
}

/** Issues a purchase order: takes the next number (`PO-n`) from its sequence and writes the `issued` row. */
export async function issuePurchaseOrder(q: Queryable, po: NewPurchaseOrder, now: number): Promise<{ id: string; number: string }> {
  const { rows } = await q.query<{ number: string }>(`SELECT 'PO-' || nextval('purchase_order_number_seq') AS number`);
  const number = rows[0].number;
  const id = newCommerceId('pord');
  await q.query(
    `INSERT INTO purchase_orders (id, number, order_id, generation, node_id, supplier, location_id, lines, amount_minor, currency, status, issued_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'issued', $11)`,
    [id, number, po.orderId, po.generation, po.nodeId, po.supplier, po.locationId, JSON.stringify(po.lines), po.amountMinor, po.currency, now],
  );
  return { id, number };
}

/** Cancels the purchase orders one node of the run issued that are not received yet. */
export async function cancelIssuedPurchaseOrders(q: Queryable, orderId: string, generation: number, nodeId: string, now: number): Promise<void> {
  await q.query(
    `UPDATE purchase_orders SET status = 'cancelled', cancelled_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'issued'`,
    [orderId, generation, nodeId, now],
  );
}

/** The run's issued purchase orders are received (their goods were booked in). */
export async function markPurchaseOrdersReceived(q: Queryable, orderId: string, generation: number, now: number): Promise<void> {
  await q.query(
    `UPDATE purchase_orders SET status = 'received', received_at = $3 WHERE order_id = $1 AND generation = $2 AND status = 'issued'`,
    [orderId, generation, now],
  );
}

/** The run's received purchase orders are open again (their receipt was reversed). */
export async function reopenReceivedPurchaseOrders(q: Queryable, orderId: string, generation: number): Promise<void> {
  await q.query(
    `UPDATE purchase_orders SET status = 'issued', received_at = NULL WHERE order_id = $1 AND generation = $2 AND status = 'received'`,
    [orderId, generation],
  );
}

// On-account invoices in PostgreSQL: issued with the next INV-n number, reversed while open, counted against credit limits.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';

/** An invoice to issue (`issueInvoice`): the order total on account, due `termsDays` after issue. */
export interface NewInvoice {
  orderId: string;
  /** The run it belongs to (undo touches only the current run's invoices). */
  generation: number;
  nodeId: string;
  customerId: string | null;
  amountMinor: number;
  currency: string;
  termsDays: number;
  dueAt: number;
}

/** Numbers an invoice `INV-n` from the invoice sequence and records it open; returns its id and number. */
export async function issueInvoice(q: Queryable, invoice: NewInvoice, now: number): Promise<{ id: string; number: string }> {
  const { rows } = await q.query<{ number: string }>(`SELECT 'INV-' || nextval('invoice_number_seq') AS number`);
  const number = rows[0].number;
  const id = newCommerceId('inv');
  await q.query(
    `INSERT INTO invoices (id, number, order_id, generation, node_id, customer_id, amount_minor, currency, terms_days, status, issued_at, due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $11)`,
    [id, number, invoice.orderId, invoice.generation, invoice.nodeId, invoice.customerId, invoice.amountMinor, invoice.currency, invoice.termsDays, now, invoice.dueAt],
  );
  return { id, number };
}

/** Undo of an invoice step: the node's open invoices of the run become reversed (paid ones stay). */
export async function reverseOpenInvoices(q: Queryable, orderId: string, generation: number, nodeId: string, now: number): Promise<void> {
  await q.query(
    `UPDATE invoices SET status = 'reversed', reversed_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'open'`,
    [orderId, generation, nodeId, now],
  );
}

/** A customer's open invoices on its other orders (its exposure against the credit limit), each in its own currency. */
export async function openInvoicesOfCustomer(q: Queryable, customerId: string, exceptOrderId: string): Promise<{ amountMinor: number; currency: string }[]> {
  const { rows } = await q.query<{ amount_minor: string; currency: string }>(
    `SELECT i.amount_minor, i.currency FROM invoices i JOIN orders o ON o.id = i.order_id
            WHERE o.customer_id = $1 AND i.status = 'open' AND i.order_id <> $2`,
    [customerId, exceptOrderId],
  );
  return rows.map((r) => ({ amountMinor: Number(r.amount_minor), currency: r.currency }));
}

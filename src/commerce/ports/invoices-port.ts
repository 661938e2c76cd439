// Port `invoices`: on-account invoices an order raises, and their reversal.
import type { NewInvoice } from '../invoices-repo.js';

export interface InvoicesPort {
  /** Issues an invoice: takes the next number `INV-n` and writes an open invoices row. Returns its id and number. */
  issue(invoice: NewInvoice, now: number): Promise<{ id: string; number: string }>;
  /** Undo: the node's open invoices of the run `generation` become reversed (paid ones stay). */
  reverseOpen(orderId: string, generation: number, nodeId: string, now: number): Promise<void>;
}

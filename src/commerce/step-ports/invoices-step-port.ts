// The `invoices` port over a slice's store.
import type { StepStore } from '../../engine/step-store.js';
import { issueInvoice, reverseOpenInvoices } from '../invoices-repo.js';
import type { InvoicesPort } from '../ports/invoices-port.js';

export function invoicesPort(store: StepStore): InvoicesPort {
  return {
    // Taking a number from the sequence changes it: a write, like the insert after it.
    issue: (invoice, now) => issueInvoice(store.writer, invoice, now),
    reverseOpen: (orderId, generation, nodeId, now) => reverseOpenInvoices(store.writer, orderId, generation, nodeId, now),
  };
}

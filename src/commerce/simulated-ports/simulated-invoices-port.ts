// Port `invoices` in a simulation: invoices numbered as the next real one would be (the sequence is read, never taken), reversed on undo.
import { newCommerceId } from '../../domain/commerce-ids.js';
import type { InvoicesPort } from '../ports/invoices-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedInvoicesPort(ledger: SimulatedLedger): InvoicesPort {
  return {
    issue: (invoice, now) => {
      const row = ledger.insert(ledger.invoices, { ...invoice, id: newCommerceId('inv'), number: `INV-${ledger.nextNumber('invoice')}`, status: 'open', issuedAt: now });
      return Promise.resolve({ id: row.id, number: row.number });
    },
    reverseOpen: (orderId, generation, nodeId) => {
      for (const i of ledger.invoices)
        if (i.orderId === orderId && i.generation === generation && i.nodeId === nodeId && i.status === 'open') ledger.patch(i, { status: 'reversed' });
      return Promise.resolve();
    },
  };
}

// The `customers` port over a slice's store (reads only).
import type { StepStore } from '../../engine/step-store.js';
import { customerCreditLimit, customerEmail } from '../customers-repo.js';
import { openInvoicesOfCustomer } from '../invoices-repo.js';
import type { CustomersPort } from '../ports/customers-port.js';

export function customersPort(store: StepStore): CustomersPort {
  return {
    email: (customerId) => customerEmail(store.reader, customerId),
    creditLimit: (customerId) => customerCreditLimit(store.reader, customerId),
    openInvoices: (customerId, exceptOrderId) => openInvoicesOfCustomer(store.reader, customerId, exceptOrderId),
  };
}

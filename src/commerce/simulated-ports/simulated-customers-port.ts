// Port `customers` in a simulation: the order's customer account and its open invoices on other orders, as the snapshot read them.
import type { CustomersPort } from '../ports/customers-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedCustomersPort(ledger: SimulatedLedger): CustomersPort {
  const customer = (id: string) => ledger.customers.find((c) => c.id === id);
  return {
    email: (customerId) => Promise.resolve(customer(customerId)?.email ?? null),
    creditLimit: (customerId) => {
      const c = customer(customerId);
      return Promise.resolve(c ? { limitMinor: c.creditLimitMinor } : null);
    },
    openInvoices: (customerId, exceptOrderId) =>
      Promise.resolve([
        ...ledger.customerOpenInvoices.filter((i) => i.customerId === customerId).map((i) => ({ amountMinor: i.amountMinor, currency: i.currency })),
        // Invoices the simulation raised count only for another order (it raises them for its own).
        ...ledger.invoices.filter((i) => i.customerId === customerId && i.status === 'open' && i.orderId !== exceptOrderId).map((i) => ({ amountMinor: i.amountMinor, currency: i.currency })),
      ]),
  };
}

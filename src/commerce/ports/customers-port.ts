// Port `customers`: the buyer's account as steps read it (email, credit limit, open invoices on other orders).
export interface CustomersPort {
  /** The customer account's email, or null when there is no such customer. */
  email(customerId: string): Promise<string | null>;
  /** The customer's credit limit in USD cents (`limitMinor` null: no limit set), or null when there is no such customer. */
  creditLimit(customerId: string): Promise<{ limitMinor: number | null } | null>;
  /** The customer's open on-account invoices on its other orders (its exposure), each in its own currency. */
  openInvoices(customerId: string, exceptOrderId: string): Promise<{ amountMinor: number; currency: string }[]>;
}

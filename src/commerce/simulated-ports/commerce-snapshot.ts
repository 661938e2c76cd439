// What a simulation reads of the workspace before it runs (contract 14): reference data, stock and the customer, as plain data.
import type { LocationRow, ProductRow, SellerProfile } from '../catalogue-repo.js';
import type { CommerceSettings } from '../workspace-settings.js';

/** One SKU's units at one location. */
export interface StockLevel {
  sku: string;
  locationId: string;
  onHand: number;
  reserved: number;
}

/**
 * The workspace's data a simulated order runs against, read with short plain reads before any step
 * runs (src/commerce/commerce-snapshot-repo.ts) and never written back: the simulated ports change
 * their own copy (simulated-ledger.ts).
 */
export interface CommerceSnapshot {
  settings: CommerceSettings;
  /** The products the run may touch (its lines' SKUs; the whole catalogue when a document may name any). */
  products: ProductRow[];
  /** The SKUs of the catalogue a document reader may recognise, sorted. */
  skus: string[];
  sellers: SellerProfile[];
  locations: LocationRow[];
  /** Stock levels of `products` at every location. */
  stock: StockLevel[];
  /** Emails of the enabled operators, sorted. */
  operatorEmails: string[];
  /** The order's customer account, when it names one that exists. */
  customers: { id: string; email: string; creditLimitMinor: number | null }[];
  /** That customer's open on-account invoices on other orders (its exposure). */
  customerOpenInvoices: { customerId: string; amountMinor: number; currency: string }[];
  /** The numbers the next invoice and purchase order would take (read, never taken). */
  nextInvoiceNumber: number;
  nextPurchaseOrderNumber: number;
}

/** The simulated order's own rows: its lines as recorded at the start, and its inbound document. */
export interface SimulatedOrderData {
  orderId: string;
  lines: { sku: string; name: string | null; qty: number; unitPriceMinor: number | null; sellerId: string | null; locationId: string | null }[];
  documentText: string | null;
}

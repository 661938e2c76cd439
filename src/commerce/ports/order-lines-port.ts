// Port `orderLines`: the order's lines and totals as steps read and change them (prices, sellers, locations, dropped lines, extracted lines).
import type { OrderLineRow } from '../order-lines-repo.js';

export interface OrderLinesPort {
  /** The order's lines in line order; dropped ones only with includeDropped. */
  read(orderId: string, opts?: { includeDropped?: boolean }): Promise<OrderLineRow[]>;
  setPrices(orderId: string, prices: readonly { lineNo: number; unitPriceMinor: number }[]): Promise<void>;
  /** The lines' resolved sellers (null: first party). */
  setSellers(orderId: string, sellers: readonly { lineNo: number; sellerId: string | null }[]): Promise<void>;
  setLocation(orderId: string, lineNo: number, locationId: string): Promise<void>;
  /** Marks lines dropped (a seller rejected them). */
  drop(orderId: string, lineNos: readonly number[]): Promise<void>;
  /** Appends lines after the existing ones (read from a document). */
  append(orderId: string, lines: readonly { sku: string; name: string | null; qty: number; unitPriceMinor: number | null }[]): Promise<void>;
  /**
   * Re-totals the order (minor units: after pricing, after dropping lines): written with the orders
   * row when the slice ends (no statement of its own); the next steps of the slice see the new totals.
   */
  setTotals(orderId: string, totals: { subtotal: number; tax: number; total: number }): void;
}

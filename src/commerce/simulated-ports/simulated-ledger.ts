// The in-memory tables a simulated order's ports read and write, copied from a snapshot, with a journal that takes a failed body's writes back.
import type { SellerOrderStatus } from '../../domain/seller-split.js';
import type { LocationRow, ProductRow, SellerProfile } from '../catalogue-repo.js';
import type { OrderLineRow } from '../order-lines-repo.js';
import type { NewInvoice } from '../invoices-repo.js';
import type { PayoutRow } from '../payouts-repo.js';
import type { NewPurchaseOrder } from '../purchase-orders-repo.js';
import type { SellerOrderRow } from '../seller-orders-repo.js';
import type { ShipmentLine } from '../carrier.js';
import type { ReservationRow } from '../stock-repo.js';
import type { CommerceSettings } from '../workspace-settings.js';
import type { CommerceSnapshot, SimulatedOrderData, StockLevel } from './commerce-snapshot.js';

/** Where a row was made: the run (generation) and node, as the real tables key their undo by. */
interface RunScoped {
  orderId: string;
  generation: number;
  nodeId: string;
}

export type SimReservation = ReservationRow & RunScoped;
export interface SimAuthorization extends RunScoped {
  id: string;
  amountMinor: number;
  currency: string;
  status: 'authorized' | 'captured' | 'voided';
  capturedMinor: number;
  releasedMinor: number;
  gatewayRef: string;
}
export interface SimCharge extends RunScoped {
  id: string;
  kind: 'capture' | 'charge';
  authorizationId: string | null;
  amountMinor: number;
  currency: string;
  method: string;
  gatewayRef: string;
}
export interface SimRefund {
  id: string;
  orderId: string;
  nodeId: string;
  chargeId: string | null;
  amountMinor: number;
  currency: string;
  status: 'succeeded';
  reason: string | null;
  gatewayRef: string | null;
}
export interface SimShipment extends RunScoped {
  id: string;
  locationId: string;
  carrier: string;
  service: string;
  trackingNumber: string;
  shipTo: unknown;
  lines: readonly ShipmentLine[];
  status: 'shipped' | 'cancelled';
  carrierRef: string | null;
}
export interface SimDigitalCode extends RunScoped {
  id: string;
  lineNo: number;
  sku: string;
  code: string;
  status: 'issued' | 'revoked';
}
export interface SimInvoice extends NewInvoice {
  id: string;
  number: string;
  status: 'open' | 'reversed' | 'paid';
  issuedAt: number;
}
export interface SimNotification {
  id: string;
  orderId: string;
  nodeId: string;
  audience: string;
  recipient: string;
  address: string | null;
  subject: string;
  body: string;
}
export interface SimPickup extends RunScoped {
  id: string;
  locationId: string;
  code: string;
  lines: readonly { lineNo: number; sku: string; qty: number }[];
  status: 'staged' | 'handed_over' | 'cancelled';
  stagedAt: number;
}
export interface SimPurchaseOrder extends NewPurchaseOrder {
  id: string;
  number: string;
  status: 'issued' | 'received' | 'cancelled';
}
export interface SimStockReceipt extends RunScoped {
  id: string;
  sku: string;
  locationId: string;
  qty: number;
  status: 'received' | 'reversed';
}
export type SimLine = OrderLineRow & { orderId: string };

const stockKey = (sku: string, locationId: string) => `${sku}\u0000${locationId}`;

/**
 * One simulated order's world. Reference data (settings, products, sellers, locations) is read
 * only; stock levels, the order's lines and every table a step writes are this ledger's own rows.
 * Rows are changed only through `insert`, `patch` and `level`, which journal how to take the
 * change back while a body runs (`atomically`): a body that throws leaves nothing, as the real
 * run host's savepoint does. Nothing here reaches the database.
 */
export class SimulatedLedger {
  readonly settings: CommerceSettings;
  readonly products: ReadonlyMap<string, ProductRow>;
  readonly sellers: ReadonlyMap<string, SellerProfile>;
  readonly locations: ReadonlyMap<string, LocationRow>;
  readonly skus: readonly string[];
  readonly operatorEmails: readonly string[];
  readonly customers: CommerceSnapshot['customers'];
  readonly customerOpenInvoices: CommerceSnapshot['customerOpenInvoices'];
  readonly documentText: string | null;
  readonly orderId: string;

  private readonly stock = new Map<string, StockLevel>();
  readonly lines: SimLine[] = [];
  readonly reservations: SimReservation[] = [];
  readonly authorizations: SimAuthorization[] = [];
  readonly charges: SimCharge[] = [];
  readonly refunds: SimRefund[] = [];
  readonly sellerOrders: SellerOrderRow[] = [];
  readonly payouts: PayoutRow[] = [];
  readonly shipments: SimShipment[] = [];
  readonly digitalCodes: SimDigitalCode[] = [];
  readonly invoices: SimInvoice[] = [];
  readonly notifications: SimNotification[] = [];
  readonly pickups: SimPickup[] = [];
  readonly purchaseOrders: SimPurchaseOrder[] = [];
  readonly stockReceipts: SimStockReceipt[] = [];
  private readonly numbers: { invoice: number; purchaseOrder: number };
  /** How to take back each change of the running body, latest last; null between bodies. */
  private journal: (() => void)[] | null = null;

  constructor(snapshot: CommerceSnapshot, order: SimulatedOrderData) {
    this.settings = snapshot.settings;
    this.products = new Map(snapshot.products.map((p) => [p.sku, p]));
    this.sellers = new Map(snapshot.sellers.map((s) => [s.id, s]));
    this.locations = new Map(snapshot.locations.map((l) => [l.id, l]));
    this.skus = snapshot.skus;
    this.operatorEmails = snapshot.operatorEmails;
    this.customers = snapshot.customers;
    this.customerOpenInvoices = snapshot.customerOpenInvoices;
    for (const s of snapshot.stock) this.stock.set(stockKey(s.sku, s.locationId), { ...s });
    this.numbers = { invoice: snapshot.nextInvoiceNumber, purchaseOrder: snapshot.nextPurchaseOrderNumber };
    this.orderId = order.orderId;
    this.documentText = order.documentText;
    order.lines.forEach((l, i) => this.lines.push({ orderId: order.orderId, lineNo: i + 1, ...l, dropped: false }));
  }

  /** Runs one body: its changes stay when it returns, and are undone (latest first) when it throws. */
  async atomically<T>(body: () => Promise<T>): Promise<T> {
    const journal: (() => void)[] = [];
    this.journal = journal;
    try {
      return await body();
    } catch (err) {
      for (let i = journal.length - 1; i >= 0; i--) journal[i]();
      throw err;
    } finally {
      this.journal = null;
    }
  }

  private remember(undo: () => void): void {
    this.journal?.push(undo);
  }

  /** Appends a row (journalled). */
  insert<T>(rows: T[], row: T): T {
    rows.push(row);
    this.remember(() => void rows.splice(rows.lastIndexOf(row), 1));
    return row;
  }

  /** Changes some fields of a row in place (journalled). */
  patch<T extends object>(row: T, changes: Partial<T>): void {
    const before: Partial<T> = {};
    for (const key of Object.keys(changes) as (keyof T)[]) before[key] = row[key];
    Object.assign(row, changes);
    this.remember(() => void Object.assign(row, before));
  }

  /** A stock level as it stands now (undefined: the SKU was never stocked there). */
  level(sku: string, locationId: string): Readonly<StockLevel> | undefined {
    return this.stock.get(stockKey(sku, locationId));
  }

  /** Every stock level of the SKU, by location id. */
  levelsOf(sku: string): Readonly<StockLevel>[] {
    return [...this.stock.values()].filter((s) => s.sku === sku).sort((a, b) => (a.locationId < b.locationId ? -1 : a.locationId > b.locationId ? 1 : 0));
  }

  /** Moves a stock level (journalled); a receipt at a location without one creates it. */
  moveStock(sku: string, locationId: string, change: { onHand?: number; reserved?: number }): void {
    const key = stockKey(sku, locationId);
    let level = this.stock.get(key);
    if (!level) {
      level = { sku, locationId, onHand: 0, reserved: 0 };
      this.stock.set(key, level);
      this.remember(() => void this.stock.delete(key));
    }
    this.patch(level, { onHand: level.onHand + (change.onHand ?? 0), reserved: level.reserved + (change.reserved ?? 0) });
  }

  /** The next number of a sequence (`INV-n`, `PO-n`), as nextval would give it; a failed body gives it back. */
  nextNumber(sequence: 'invoice' | 'purchaseOrder'): number {
    const n = this.numbers[sequence];
    this.numbers[sequence] = n + 1;
    this.remember(() => void (this.numbers[sequence] = n));
    return n;
  }

  /** The order's lines (the simulated order is the only one with lines). */
  linesOf(orderId: string): SimLine[] {
    return orderId === this.orderId ? this.lines : [];
  }

  /** Seller orders' status at a glance (tests and the answer read them). */
  sellerOrderStatuses(): Record<string, SellerOrderStatus> {
    return Object.fromEntries(this.sellerOrders.map((s) => [s.sellerId ?? 'first_party', s.status]));
  }
}

// Reads what a simulated order runs against (contract 14) in ONE plain statement: no row lock, no transaction, the connection back at once.
import type { Queryable } from '../db/db.js';
import type { ExchangeRates } from '../domain/fx.js';
import type { StoredHttpAdapter } from './http-adapter.js';
import type { LocationRow } from './catalogue-repo.js';
import type { CommerceSnapshot } from './simulated-ports/commerce-snapshot.js';

/** The whole catalogue is read when a document may name any SKU; a catalogue larger than this is read up to it, by SKU. */
export const SNAPSHOT_CATALOGUE_MAX = 20_000;

export interface SnapshotNeeds {
  /** The SKUs of the order's lines. */
  skus: readonly string[];
  /** Read every product (an `ai.extract_order` step may append lines of any SKU from the order's document). */
  wholeCatalogue: boolean;
  customerId: string | null;
}

interface SnapshotRow {
  workspace: { exchange_rates: ExchangeRates; tax_rate: number; return_window_days: number; fraud_threshold: number; adapters: { payments?: StoredHttpAdapter | null; carrier?: StoredHttpAdapter | null } | null } | null;
  products: { sku: string; name: string; price_minor: number; seller_id: string | null; reorder_point: number; reorder_qty: number | null; digital: boolean }[];
  sellers: { id: string; name: string; commission: number; auto_accept: boolean; active: boolean; email: string | null }[];
  locations: { id: string; name: string; kind: LocationRow['kind']; latitude: number; longitude: number }[];
  stock: { sku: string; location_id: string; on_hand: number; reserved: number }[];
  operators: string[];
  customers: { id: string; email: string; credit_limit_minor: number | null }[];
  open_invoices: { customer_id: string; amount_minor: number; currency: string }[];
  next_invoice: number;
  next_purchase_order: number;
}

/**
 * The snapshot as one SELECT of subqueries: PostgreSQL answers it from one snapshot of the data, it
 * takes no row lock (a real order reserving the same stock never waits for it), and the pooled
 * connection goes back as soon as it answers, before any step of the simulation runs. The invoice
 * and purchase-order sequences are read, never advanced.
 */
export async function readCommerceSnapshot(q: Queryable, needs: SnapshotNeeds): Promise<CommerceSnapshot> {
  const { rows } = await q.query<SnapshotRow>(
    `WITH p AS (
       SELECT sku, name, price_minor, seller_id, reorder_point, reorder_qty, digital FROM products
        WHERE $1 OR sku = ANY($2::text[]) ORDER BY sku LIMIT $4)
     SELECT
       (SELECT row_to_json(w) FROM (SELECT exchange_rates, tax_rate, return_window_days, fraud_threshold, adapters FROM workspace WHERE id = 1) w) AS workspace,
       (SELECT coalesce(json_agg(p ORDER BY p.sku), '[]') FROM p) AS products,
       (SELECT coalesce(json_agg(s ORDER BY s.id), '[]') FROM (SELECT id, name, commission, auto_accept, active, email FROM sellers) s) AS sellers,
       (SELECT coalesce(json_agg(l ORDER BY l.id), '[]') FROM (SELECT id, name, kind, latitude, longitude FROM locations) l) AS locations,
       (SELECT coalesce(json_agg(s ORDER BY s.sku, s.location_id), '[]')
          FROM (SELECT sku, location_id, on_hand, reserved FROM stock_levels WHERE sku IN (SELECT sku FROM p)) s) AS stock,
       (SELECT coalesce(json_agg(email ORDER BY email), '[]') FROM people WHERE role = 'operator' AND enabled) AS operators,
       (SELECT coalesce(json_agg(c), '[]') FROM (SELECT id, email, credit_limit_minor FROM customers WHERE id = $3) c) AS customers,
       (SELECT coalesce(json_agg(i), '[]')
          FROM (SELECT o.customer_id, i.amount_minor, i.currency FROM invoices i JOIN orders o ON o.id = i.order_id
                 WHERE o.customer_id = $3 AND i.status = 'open') i) AS open_invoices,
       (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM invoice_number_seq) AS next_invoice,
       (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM purchase_order_number_seq) AS next_purchase_order`,
    [needs.wholeCatalogue, [...new Set(needs.skus)], needs.customerId, SNAPSHOT_CATALOGUE_MAX],
  );
  const r = rows[0];
  if (!r.workspace) throw new Error('The workspace settings are missing (the workspace file was not applied)');
  const products = r.products.map((p) => ({
    sku: p.sku,
    name: p.name,
    priceMinor: Number(p.price_minor),
    sellerId: p.seller_id,
    reorderPoint: p.reorder_point,
    reorderQty: p.reorder_qty,
    digital: p.digital,
  }));
  return {
    settings: {
      exchangeRates: r.workspace.exchange_rates,
      taxRate: Number(r.workspace.tax_rate),
      returnWindowDays: Number(r.workspace.return_window_days),
      fraudThreshold: Number(r.workspace.fraud_threshold),
      adapters: { payments: r.workspace.adapters?.payments ?? null, carrier: r.workspace.adapters?.carrier ?? null },
    },
    products,
    skus: products.map((p) => p.sku),
    sellers: r.sellers.map((s) => ({ id: s.id, name: s.name, commission: Number(s.commission), autoAccept: s.auto_accept, active: s.active, email: s.email ?? null })),
    locations: r.locations.map((l) => ({ id: l.id, name: l.name, kind: l.kind, latitude: Number(l.latitude), longitude: Number(l.longitude) })),
    stock: r.stock.map((s) => ({ sku: s.sku, locationId: s.location_id, onHand: Number(s.on_hand), reserved: Number(s.reserved) })),
    operatorEmails: r.operators,
    customers: r.customers.map((c) => ({ id: c.id, email: c.email, creditLimitMinor: c.credit_limit_minor === null ? null : Number(c.credit_limit_minor) })),
    customerOpenInvoices: r.open_invoices.map((i) => ({ customerId: i.customer_id, amountMinor: Number(i.amount_minor), currency: i.currency })),
    nextInvoiceNumber: Number(r.next_invoice),
    nextPurchaseOrderNumber: Number(r.next_purchase_order),
  };
}

// Catalogue reads for the commerce steps: products (USD prices, seller, digital flag), sellers, locations.
import type { Queryable } from '../db/db.js';
import { cachedRows, referenceRows } from '../db/transaction-read-cache.js';
import type { SellerSettings } from '../domain/seller-settings.js';

export interface ProductRow {
  sku: string;
  name: string;
  /** Catalogue price in USD cents. */
  priceMinor: number;
  sellerId: string | null;
  reorderPoint: number;
  reorderQty: number | null;
  digital: boolean;
}

export interface LocationRow {
  id: string;
  name: string;
  kind: 'warehouse' | 'store';
  latitude: number;
  longitude: number;
}

/** A `products` row as pg returns it (bigint columns as text). */
interface ProductDbRow {
  sku: string;
  name: string;
  price_minor: string;
  seller_id: string | null;
  reorder_point: number;
  reorder_qty: number | null;
  digital: boolean;
}

/** A `sellers` row as pg returns it (numeric columns as text). */
interface SellerDbRow {
  id: string;
  name: string;
  commission: string;
  auto_accept: boolean;
  active: boolean;
  email: string | null;
}

/** A `locations` row as the map reads it. */
interface LocationDbRow {
  id: string;
  name: string;
  kind: LocationRow['kind'];
  latitude: number;
  longitude: number;
}

export async function productsBySku(q: Queryable, skus: readonly string[]): Promise<Map<string, ProductRow>> {
  if (skus.length === 0) return new Map();
  const rows = await referenceRows(
    q,
    'products',
    [...new Set(skus)].sort(),
    (missing) => cachedRows<ProductDbRow>(q, 'products', 'SELECT * FROM products WHERE sku = ANY($1::text[])', [missing]),
    (r) => r.sku,
  );
  return new Map(
    rows.map((r) => [
      r.sku,
      {
        sku: r.sku,
        name: r.name,
        priceMinor: Number(r.price_minor),
        sellerId: r.seller_id,
        reorderPoint: r.reorder_point,
        reorderQty: r.reorder_qty,
        digital: r.digital,
      },
    ]),
  );
}

/** A seller as steps see it: settings, name and the email their notifications go to (null when the workspace file gives none). */
export type SellerProfile = SellerSettings & { name: string; email: string | null };

/** Sellers by id, with the email their notifications go to. */
export async function sellersById(q: Queryable, ids: readonly string[]): Promise<Map<string, SellerProfile>> {
  if (ids.length === 0) return new Map();
  const rows = await referenceRows(
    q,
    'sellers',
    [...new Set(ids)].sort(),
    async (missing) => (await q.query<SellerDbRow>('SELECT * FROM sellers WHERE id = ANY($1::text[])', [missing])).rows,
    (r) => r.id,
  );
  return new Map(
    rows.map((r) => [r.id, { id: r.id, name: r.name, commission: Number(r.commission), autoAccept: r.auto_accept, active: r.active, email: r.email ?? null }]),
  );
}

export async function locationsById(q: Queryable): Promise<Map<string, LocationRow>> {
  const { rows } = await q.query<LocationDbRow>('SELECT id, name, kind, latitude, longitude FROM locations ORDER BY id');
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, kind: r.kind, latitude: Number(r.latitude), longitude: Number(r.longitude) }]));
}

/** Every SKU of the catalogue, sorted. */
export async function catalogueSkus(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ sku: string }>('SELECT sku FROM products ORDER BY sku');
  return rows.map((r) => r.sku);
}

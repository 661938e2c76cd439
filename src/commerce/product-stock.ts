// find_products: products with stock on hand, reserved and available over all locations, and their reorder points.
import type { Queryable } from '../db/db.js';

export interface ProductStock {
  sku: string;
  name: string;
  sellerId: string | null;
  stock: number;
  reserved: number;
  available: number;
  reorderPoint: number;
}

/** At most this many products per answer, by SKU. */
export const PRODUCTS_LISTED = 500;

/**
 * Products matching `q` (SKU or name, case-insensitive, anywhere) or exactly `sku`; with
 * `belowReorderPoint`, only those whose available stock is at or below a reorder point above zero
 * (what the stock review would reorder, first-party or not).
 */
export async function findProducts(q: Queryable, filters: { q?: string; sku?: string; belowReorderPoint?: boolean }): Promise<ProductStock[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filters.sku !== undefined) {
    params.push(filters.sku);
    where.push(`p.sku = $${params.length}`);
  }
  const needle = filters.q?.trim();
  if (needle) {
    params.push(`%${needle.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(lower(p.sku) LIKE $${params.length} OR lower(p.name) LIKE $${params.length})`);
  }
  params.push(PRODUCTS_LISTED);
  const { rows } = await q.query<{ sku: string; name: string; seller_id: string | null; reorder_point: number; stock: number; reserved: number }>(
    `SELECT p.sku, p.name, p.seller_id, p.reorder_point,
            coalesce(sum(s.on_hand), 0)::int AS stock, coalesce(sum(s.reserved), 0)::int AS reserved
       FROM products p LEFT JOIN stock_levels s ON s.sku = p.sku
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      GROUP BY p.sku
      ${filters.belowReorderPoint ? 'HAVING p.reorder_point > 0 AND coalesce(sum(s.on_hand), 0) - coalesce(sum(s.reserved), 0) <= p.reorder_point' : ''}
      ORDER BY p.sku LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => ({
    sku: r.sku,
    name: r.name,
    sellerId: r.seller_id,
    stock: r.stock,
    reserved: r.reserved,
    available: r.stock - r.reserved,
    reorderPoint: r.reorder_point,
  }));
}

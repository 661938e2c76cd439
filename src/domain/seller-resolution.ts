// Which seller a line belongs to, and whether that seller may take the order (spec "Seller").
import type { SellerSettings } from './seller-settings.js';

/** The part of a catalogue product that decides its seller; no sellerId means first party. */
export interface ProductSellerRef {
  sku: string;
  sellerId?: string | null;
}

/**
 * A line's seller, in the spec's order: the line's own `sellerId`, then the product's seller,
 * else first party (`null`). An unknown SKU falls through to first party.
 */
export function resolveLineSeller(
  line: { sku: string; sellerId?: string | null },
  productOf: (sku: string) => ProductSellerRef | undefined,
): string | null {
  if (line.sellerId) return line.sellerId;
  const fromProduct = productOf(line.sku)?.sellerId;
  return fromProduct ? fromProduct : null;
}

export type SellerCheck =
  | { ok: true; seller: SellerSettings }
  | { ok: false; code: 'unknown_seller' | 'inactive_seller'; sellerId: string; message: string };

/**
 * A third-party seller must exist and be active; otherwise the split fails without retry
 * (the node turns the failure into a TerminalError).
 */
export function checkSeller(sellerId: string, sellerOf: (id: string) => SellerSettings | undefined): SellerCheck {
  const seller = sellerOf(sellerId);
  if (!seller) return { ok: false, code: 'unknown_seller', sellerId, message: `Unknown seller ${sellerId}` };
  if (!seller.active) return { ok: false, code: 'inactive_seller', sellerId, message: `Seller ${sellerId} is inactive` };
  return { ok: true, seller };
}

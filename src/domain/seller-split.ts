// Splitting an order's lines into one seller order per seller (spec "Seller order", "Split node branches").
import { lineTotalMinor, type PricedLine } from './order-totals.js';
import { checkSeller, resolveLineSeller, type ProductSellerRef } from './seller-resolution.js';
import type { SellerSettings } from './seller-settings.js';

export const SELLER_ORDER_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled'] as const;
export type SellerOrderStatus = (typeof SELLER_ORDER_STATUSES)[number];

/** A line the split can place: priced, with a SKU and maybe an explicit seller. */
export interface SplitLine extends PricedLine {
  sku: string;
  sellerId?: string | null;
}

/** One seller's share of the order; `sellerId: null` is first party. Lines carry their resolved seller. */
export interface SellerPart<L extends SplitLine> {
  sellerId: string | null;
  lines: (L & { sellerId: string | null })[];
  /** Sum of the part's line totals in minor units (no tax). */
  subtotal: number;
  status: 'pending' | 'accepted';
}

export type SplitBranch = 'accepted' | 'awaiting';

export type SplitOutcome<L extends SplitLine> =
  | {
      ok: true;
      parts: SellerPart<L>[];
      /** `accepted` when nothing is pending, `awaiting` otherwise. */
      branch: SplitBranch;
      /** Third-party seller ids on the order, in order of first appearance (`vars.sellers`). */
      sellers: string[];
      /** Third-party seller ids still to answer (`vars.pendingSellers`). */
      pendingSellers: string[];
    }
  | { ok: false; code: 'unknown_seller' | 'inactive_seller'; sellerId: string; message: string };

/** First-party parts and sellers who accept automatically start accepted; others pending. */
export function initialSellerOrderStatus(sellerId: string | null, seller?: Pick<SellerSettings, 'autoAccept'>): 'pending' | 'accepted' {
  if (sellerId === null) return 'accepted';
  return seller?.autoAccept ? 'accepted' : 'pending';
}

/**
 * Groups lines per resolved seller (deterministic, so a retried step computes the same parts).
 * Any unknown or inactive seller fails the whole split (first such seller reported).
 */
export function splitBySeller<L extends SplitLine>(
  lines: readonly L[],
  lookups: { productOf: (sku: string) => ProductSellerRef | undefined; sellerOf: (id: string) => SellerSettings | undefined },
): SplitOutcome<L> {
  const parts = new Map<string | null, SellerPart<L>>();
  for (const line of lines) {
    const sellerId = resolveLineSeller(line, lookups.productOf);
    let part = parts.get(sellerId);
    if (!part) {
      let status: 'pending' | 'accepted' = 'accepted';
      if (sellerId !== null) {
        const check = checkSeller(sellerId, lookups.sellerOf);
        if (!check.ok) return check;
        status = initialSellerOrderStatus(sellerId, check.seller);
      }
      part = { sellerId, lines: [], subtotal: 0, status };
      parts.set(sellerId, part);
    }
    part.lines.push({ ...line, sellerId });
    part.subtotal += lineTotalMinor(line);
  }
  const list = [...parts.values()];
  const sellers = list.flatMap((p) => (p.sellerId === null ? [] : [p.sellerId]));
  const pendingSellers = list.flatMap((p) => (p.sellerId !== null && p.status === 'pending' ? [p.sellerId] : []));
  return { ok: true, parts: list, branch: pendingSellers.length > 0 ? 'awaiting' : 'accepted', sellers, pendingSellers };
}

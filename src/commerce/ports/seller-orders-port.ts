// Port `sellerOrders`: the order's parts per seller (first party included) and the sellers' answers.
import type { SellerOrderStatus } from '../../domain/seller-split.js';
import type { NewSellerOrder, SellerOrderRow } from '../seller-orders-repo.js';

export interface SellerOrdersPort {
  /** The order's seller orders in creation order (cached for the slice). */
  of(orderId: string): Promise<SellerOrderRow[]>;
  /** The same, locked until the slice commits (a seller's answer is applied to them); later reads of the slice reuse them. */
  lock(orderId: string): Promise<SellerOrderRow[]>;
  /**
   * Creates the order's seller orders, each unless the order already has one for that seller (a
   * retried split changes nothing): writes seller_orders rows. Returns every seller order the order has, as stored.
   */
  create(orderId: string, currency: string, parts: readonly NewSellerOrder[], now: number): Promise<SellerOrderRow[]>;
  /** Writes a seller order's new status and reason. */
  setStatus(id: string, status: SellerOrderStatus, reason: string | null, now: number): Promise<void>;
  /** Undo: the order's pending and accepted seller orders become cancelled (rejected ones stay). */
  cancelOpen(orderId: string, now: number): Promise<void>;
}

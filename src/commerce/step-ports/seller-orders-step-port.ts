// The `sellerOrders` port over a slice's store (its reads go through the slice's read cache, kept right by the writes).
import type { StepStore } from '../../engine/step-store.js';
import { cancelOpenSellerOrders, insertSellerOrders, sellerOrdersOf, setSellerOrderStatus } from '../seller-orders-repo.js';
import type { SellerOrdersPort } from '../ports/seller-orders-port.js';

export function sellerOrdersPort(store: StepStore): SellerOrdersPort {
  return {
    of: (orderId) => sellerOrdersOf(store.reader, orderId),
    // A locking read writes no row: a step that fails after it has nothing to roll back.
    lock: (orderId) => sellerOrdersOf(store.reader, orderId, { lock: true }),
    create: (orderId, currency, parts, now) => insertSellerOrders(store.writer, orderId, currency, parts, now),
    setStatus: (id, status, reason, now) => setSellerOrderStatus(store.writer, id, status, reason, now),
    cancelOpen: async (orderId, now) => {
      await cancelOpenSellerOrders(store.writer, orderId, now);
    },
  };
}

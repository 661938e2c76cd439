// Port `sellerOrders` in a simulation: the order's parts per seller in memory (one per seller), their answers, cancelled on undo.
import { newCommerceId } from '../../domain/commerce-ids.js';
import type { SellerOrderRow } from '../seller-orders-repo.js';
import type { SellerOrdersPort } from '../ports/seller-orders-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

/** sellerOrdersOf's order: creation, then the first line, then id. */
function byCreation(a: SellerOrderRow, b: SellerOrderRow): number {
  return a.createdAt - b.createdAt || (a.lines[0]?.lineNo ?? 0) - (b.lines[0]?.lineNo ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function simulatedSellerOrdersPort(ledger: SimulatedLedger): SellerOrdersPort {
  const of = (orderId: string) => ledger.sellerOrders.filter((s) => s.orderId === orderId).sort(byCreation).map((s) => ({ ...s }));
  return {
    of: (orderId) => Promise.resolve(of(orderId)),
    // Nothing to lock: no other command runs against a simulated order.
    lock: (orderId) => Promise.resolve(of(orderId)),
    create: (orderId, currency, parts, now) => {
      for (const p of parts) {
        if (ledger.sellerOrders.some((s) => s.orderId === orderId && s.sellerId === p.sellerId)) continue;
        ledger.insert(ledger.sellerOrders, {
          id: newCommerceId('so'),
          orderId,
          sellerId: p.sellerId,
          lines: p.lines,
          subtotalMinor: p.subtotalMinor,
          currency,
          status: p.status,
          reason: null,
          createdAt: now,
          updatedAt: now,
        });
      }
      return Promise.resolve(of(orderId));
    },
    setStatus: (id, status, reason, now) => {
      const row = ledger.sellerOrders.find((s) => s.id === id);
      if (row) ledger.patch(row, { status, reason, updatedAt: now });
      return Promise.resolve();
    },
    cancelOpen: (orderId, now) => {
      for (const s of ledger.sellerOrders)
        if (s.orderId === orderId && (s.status === 'pending' || s.status === 'accepted')) ledger.patch(s, { status: 'cancelled', updatedAt: now });
      return Promise.resolve();
    },
  };
}

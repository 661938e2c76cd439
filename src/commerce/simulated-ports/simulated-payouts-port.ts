// Port `payouts` in a simulation: third-party sellers' payouts scheduled in memory (one per seller and order) and reversed on undo.
import { newCommerceId } from '../../domain/commerce-ids.js';
import type { PayoutRow } from '../payouts-repo.js';
import type { PayoutsPort } from '../ports/payouts-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedPayoutsPort(ledger: SimulatedLedger): PayoutsPort {
  return {
    schedule: (orderId, currency, payouts, now) => {
      const stored = payouts.map((p) => {
        // A seller that already has a payout for the order keeps it (a retried step changes nothing).
        const existing = ledger.payouts.find((x) => x.orderId === orderId && x.sellerId === p.sellerId);
        if (existing) return { ...existing };
        const row: PayoutRow = {
          id: newCommerceId('po'),
          orderId,
          sellerId: p.sellerId,
          sellerOrderId: p.sellerOrderId,
          gross: p.gross,
          refunded: p.refunded,
          commission: p.commission,
          net: p.net,
          commissionRate: p.commissionRate,
          currency,
          status: 'scheduled',
          scheduledAt: now,
          paidAt: null,
          reversedAt: null,
        };
        return { ...ledger.insert(ledger.payouts, row) };
      });
      return Promise.resolve(stored);
    },
    reverseScheduled: (orderId, now) => {
      for (const p of ledger.payouts) if (p.orderId === orderId && p.status === 'scheduled') ledger.patch(p, { status: 'reversed', reversedAt: now });
      return Promise.resolve();
    },
  };
}

// Port `purchasing` in a simulation: purchase orders numbered as the next real one would be, and goods receipts that move the in-memory shelf.
import { newCommerceId } from '../../domain/commerce-ids.js';
import type { PurchasingPort } from '../ports/purchasing-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedPurchasingPort(ledger: SimulatedLedger): PurchasingPort {
  const ofRun = (orderId: string, generation: number) => ledger.purchaseOrders.filter((p) => p.orderId === orderId && p.generation === generation);
  return {
    issue: (po) => {
      const row = ledger.insert(ledger.purchaseOrders, { ...po, id: newCommerceId('pord'), number: `PO-${ledger.nextNumber('purchaseOrder')}`, status: 'issued' });
      return Promise.resolve({ id: row.id, number: row.number });
    },
    cancelIssued: (orderId, generation, nodeId) => {
      for (const p of ofRun(orderId, generation)) if (p.nodeId === nodeId && p.status === 'issued') ledger.patch(p, { status: 'cancelled' });
      return Promise.resolve();
    },
    receive: (receipt) => {
      ledger.moveStock(receipt.sku, receipt.locationId, { onHand: receipt.qty });
      ledger.insert(ledger.stockReceipts, { ...receipt, id: newCommerceId('rcv'), status: 'received' });
      return Promise.resolve();
    },
    markReceived: (orderId, generation) => {
      for (const p of ofRun(orderId, generation)) if (p.status === 'issued') ledger.patch(p, { status: 'received' });
      return Promise.resolve();
    },
    reverseReceipts: async (orderId, generation, nodeId) => {
      const receipts = ledger.stockReceipts.filter((r) => r.orderId === orderId && r.generation === generation && r.nodeId === nodeId && r.status === 'received');
      for (const r of receipts) {
        ledger.patch(r, { status: 'reversed' });
        // Units no longer free (reserved or sold since) cannot be taken back: the body fails and its changes are undone.
        const level = ledger.level(r.sku, r.locationId);
        if (!level || level.onHand - level.reserved < r.qty) throw new Error(`Cannot take back ${r.qty} x ${r.sku} at ${r.locationId}: already reserved or sold`);
        ledger.moveStock(r.sku, r.locationId, { onHand: -r.qty });
      }
      for (const p of ofRun(orderId, generation)) if (p.status === 'received') ledger.patch(p, { status: 'issued' });
    },
  };
}

// Port `purchasing` over a slice's store: purchase orders and goods receipts, writing through the writer.
import type { StepStore } from '../../engine/step-store.js';
import type { PurchasingPort } from '../ports/purchasing-port.js';
import { cancelIssuedPurchaseOrders, issuePurchaseOrder, markPurchaseOrdersReceived, reopenReceivedPurchaseOrders } from '../purchase-orders-repo.js';
import { receiveStock, reverseStockReceipts } from '../stock-receipts-repo.js';

export function purchasingPort(store: StepStore): PurchasingPort {
  return {
    issue: (po, now) => issuePurchaseOrder(store.writer, po, now),
    cancelIssued: (orderId, generation, nodeId, now) => cancelIssuedPurchaseOrders(store.writer, orderId, generation, nodeId, now),
    receive: (receipt, now) => receiveStock(store.writer, receipt, now),
    markReceived: (orderId, generation, now) => markPurchaseOrdersReceived(store.writer, orderId, generation, now),
    async reverseReceipts(orderId, generation, nodeId, now) {
      await reverseStockReceipts(store.writer, orderId, generation, nodeId, now);
      await reopenReceivedPurchaseOrders(store.writer, orderId, generation);
    },
  };
}

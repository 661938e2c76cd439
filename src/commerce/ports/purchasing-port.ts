// Port `purchasing`: purchase orders to suppliers (numbered PO-n) and the goods receipts that book their units onto the shelf.
import type { NewPurchaseOrder } from '../purchase-orders-repo.js';
import type { NewStockReceipt } from '../stock-receipts-repo.js';

export interface PurchasingPort {
  /** Issues a purchase order: takes the next `PO-n` number and writes the `issued` row; returns its id and number. */
  issue(po: NewPurchaseOrder, now: number): Promise<{ id: string; number: string }>;
  /** Cancels the purchase orders one node of the run issued that are not received yet. */
  cancelIssued(orderId: string, generation: number, nodeId: string, now: number): Promise<void>;
  /** Books received units onto the location's shelf (on hand grows) and writes the receipt. */
  receive(receipt: NewStockReceipt, now: number): Promise<void>;
  /** Marks the run's issued purchase orders received. */
  markReceived(orderId: string, generation: number, now: number): Promise<void>;
  /**
   * Undoes a node's goods receipt: its receipts become `reversed`, their units come off the shelf, and
   * the run's received purchase orders are issued again. Units reserved or sold since cannot be taken
   * back: that throws (the step's writes are then rolled back).
   */
  reverseReceipts(orderId: string, generation: number, nodeId: string, now: number): Promise<void>;
}

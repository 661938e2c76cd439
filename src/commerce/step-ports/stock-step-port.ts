// Port `stock` over a slice's store: the stock repository and the order's reservation, reads through the reader, writes through the writer.
import type { StepStore } from '../../engine/step-store.js';
import type { StockPort } from '../ports/stock-port.js';
import { orderStockLines, reserveOrderStock } from '../reserve-order-stock.js';
import { receiveStock, reverseStockReceipts } from '../stock-receipts-repo.js';
import { consumeReservations, consumeShipped, linkPickup, releaseNodeReservations, releaseReservations, reservationsOf, restockShipments, stockCandidates } from '../stock-repo.js';

export function stockPort(store: StepStore): StockPort {
  return {
    orderStockLines: (orderId) => orderStockLines(store.reader, orderId),
    candidates: (skus) => stockCandidates(store.reader, skus),
    reserveOrder: (order, nodeId, now) => reserveOrderStock(store, order, nodeId, now),
    reservations: (orderId, generation, statuses) => reservationsOf(store.reader, orderId, generation, statuses),
    release: (orderId, generation, now) => releaseReservations(store.writer, orderId, generation, now),
    releaseNode: (orderId, generation, nodeId, now) => releaseNodeReservations(store.writer, orderId, generation, nodeId, now),
    consume: (ids, link, now) => consumeReservations(store.writer, ids, link, now),
    consumeShipped: (parcels, now) => consumeShipped(store.writer, parcels, now),
    linkPickup: (ids, pickupId, now) => linkPickup(store.writer, ids, pickupId, now),
    restockShipments: (shipmentIds, now) => restockShipments(store.writer, shipmentIds, now),
    restockReturned: (receipt, now) => receiveStock(store.writer, receipt, now),
    reverseRestock: (orderId, generation, nodeId, now) => reverseStockReceipts(store.writer, orderId, generation, nodeId, now),
  };
}

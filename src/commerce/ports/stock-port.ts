// Port `stock`: the order's units on the shelves: which lines need stock, where it is free, reserving, releasing, consuming, restocking.
import type { StockCandidate } from '../../domain/stock-allocation.js';
import type { OrderReservation, StockOrder } from '../reserve-order-stock.js';
import type { OrderStockLines } from '../stock-lines.js';
import type { ReservationRow } from '../stock-repo.js';
import type { NewStockReceipt } from '../stock-receipts-repo.js';

export interface StockPort {
  /** The order's lines sorted by their catalogue product: physical, digital, untracked. Reads only. */
  orderStockLines(orderId: string): Promise<OrderStockLines>;
  /** Free stock (on hand minus reserved) of each SKU per location, with the location's kind and coordinates. Reads only. */
  candidates(skus: readonly string[]): Promise<Map<string, StockCandidate[]>>;
  /**
   * Reserves every physical line of the order not yet reserved (or consumed) in this run, at its pinned
   * location, else the pickup store, else the nearest or best-stocked location; writes the reservations
   * and the locations' reserved counts in one statement. Out of stock (or `meta.simulate: out_of_stock`)
   * throws a TerminalError `out_of_stock`. Returns the new reservations and all the run holds.
   */
  reserveOrder(order: StockOrder, nodeId: string, now: number): Promise<OrderReservation>;
  /** The run's reservations in line order, optionally only some statuses. Reads only. */
  reservations(orderId: string, generation: number, statuses?: readonly string[]): Promise<ReservationRow[]>;
  /** Releases every still-held reservation of the run: they become `released` and their units free again. */
  release(orderId: string, generation: number, now: number): Promise<ReservationRow[]>;
  /** Releases the still-held reservations one node of the run made (an external ship step that never booked). */
  releaseNode(orderId: string, generation: number, nodeId: string, now: number): Promise<ReservationRow[]>;
  /**
   * The goods left the building: these held reservations become `consumed` (on hand and reserved both
   * drop), linked to the shipment or pickup that took them. Writes nothing when `ids` is empty.
   */
  consume(ids: readonly string[], link: { shipmentId?: string; pickupId?: string }, now: number): Promise<void>;
  /**
   * Shipped parcels left the building: each parcel's held reservations become `consumed` (on hand and reserved both
   * drop), linked to its shipment, in one write for every parcel. Writes nothing when no parcel names a reservation.
   */
  consumeShipped(parcels: readonly { shipmentId: string; reservationIds: readonly string[] }[], now: number): Promise<void>;
  /** Attaches held reservations to a staged pickup (they stay held until handover). Writes nothing when `ids` is empty. */
  linkPickup(ids: readonly string[], pickupId: string, now: number): Promise<void>;
  /**
   * Puts the units of the consumed reservations of these (cancelled) shipments back on the shelf: they
   * become `restocked`. Returns the units restocked; writes nothing when `shipmentIds` is empty.
   */
  restockShipments(shipmentIds: readonly string[], now: number): Promise<number>;
  /**
   * Returned units are back on the shelf (contract 18): adds them to the location's on hand (a stock level
   * is created when there is none) and records a `received` stock_receipts row for the returning order's node.
   */
  restockReturned(receipt: NewStockReceipt, now: number): Promise<void>;
  /** Undo of `restockReturned`: takes the node's returned units back off the shelf; throws when they are no longer free. */
  reverseRestock(orderId: string, generation: number, nodeId: string, now: number): Promise<void>;
}

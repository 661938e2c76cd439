// Port `shipments`: the order's carrier shipments: booked through the in-database carrier or recorded from the HTTP carrier's answer, cancelled on undo.
import type { ShipmentRecord, ShipmentRequest } from '../carrier.js';
import type { NewShipment } from '../shipment-records.js';

export interface ShipmentsPort {
  /**
   * Books a shipment per request (a ship step's parcels, one statement for all) with the in-database carrier
   * (used when the workspace names no HTTP carrier): writes the `shipped` rows with tracking numbers, answered
   * in request order. `meta.simulate: ship_error` throws a RetryableError before writing.
   */
  book(reqs: readonly ShipmentRequest[], now: number): Promise<ShipmentRecord[]>;
  /** Records shipments the HTTP carrier booked (its ids in `carrierRef`): writes the `shipped` rows under new ids, answered in order. */
  recordBooked(shipments: readonly Omit<NewShipment, 'id'>[], now: number): Promise<ShipmentRecord[]>;
  /**
   * Marks a live shipment cancelled (the in-database carrier's cancellation; for an HTTP carrier's
   * shipment its record, the carrier being told after commit). False when it was not live.
   */
  cancel(shipmentId: string, now: number): Promise<boolean>;
  /** The live (shipped) shipments one node of the run booked, with the HTTP carrier's id (null for the in-database carrier). Reads only. */
  liveOfNode(orderId: string, generation: number, nodeId: string): Promise<{ id: string; carrierRef: string | null }[]>;
  /** Whether any shipment of the run is still live. Reads only. */
  anyLive(orderId: string, generation: number): Promise<boolean>;
  /** The ids of the run's cancelled shipments. Reads only. */
  cancelledOfRun(orderId: string, generation: number): Promise<string[]>;
}

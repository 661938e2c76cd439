// The carrier port: book a shipment for lines leaving one location, and cancel it.
import type { Queryable } from '../db/db.js';
import type { SimulateSwitch } from '../domain/simulate.js';

export interface ShipmentLine {
  lineNo: number;
  sku: string;
  qty: number;
}

export interface ShipmentRequest {
  orderId: string;
  generation: number;
  nodeId: string;
  locationId: string;
  lines: readonly ShipmentLine[];
  /** `meta.shipTo` as given (string or structured address), or null. */
  shipTo: unknown;
  /** `ground`, `express`, or `courier` for local delivery. */
  service: string;
  simulate: ReadonlySet<SimulateSwitch>;
}

export interface ShipmentRecord {
  id: string;
  locationId: string;
  carrier: string;
  service: string;
  trackingNumber: string;
}

export interface Carrier {
  /** Books a shipment per request (a ship step's parcels), answered in the same order; a refused booking throws (retryable unless the carrier says otherwise) and books none. */
  createShipments(q: Queryable, reqs: readonly ShipmentRequest[], now: number): Promise<ShipmentRecord[]>;
  /** Cancels a live shipment; false when it was not live. */
  cancelShipment(q: Queryable, shipmentId: string, now: number): Promise<boolean>;
}

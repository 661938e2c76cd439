// The in-database carrier: records shipments with a tracking number, honouring `meta.simulate: ship_error`.
import { randomBytes } from 'node:crypto';
import { newCommerceId } from '../domain/commerce-ids.js';
import { RetryableError } from '../domain/errors.js';
import type { Carrier, ShipmentRequest } from './carrier.js';
import { recordShipmentCancelled, recordShipments, type NewShipment } from './shipment-records.js';

/** Name recorded on shipments booked through the in-database carrier. */
export const LEDGER_CARRIER_NAME = 'Demo Parcel';

/**
 * The shipment the in-database carrier books for a request: a new id and tracking number, its carrier name.
 * `meta.simulate: ship_error` makes it refuse (retryable), so the step fails after its retries.
 */
export function ledgerBooking(req: ShipmentRequest): NewShipment {
  if (req.simulate.has('ship_error')) throw new RetryableError('The carrier refused the shipment (simulated ship_error)', undefined, 'ship_error');
  return {
    id: newCommerceId('shp'),
    orderId: req.orderId,
    generation: req.generation,
    nodeId: req.nodeId,
    locationId: req.locationId,
    carrier: req.service === 'courier' ? 'Local courier' : LEDGER_CARRIER_NAME,
    service: req.service,
    trackingNumber: `DP${randomBytes(6).toString('hex').toUpperCase()}`,
    shipTo: req.shipTo,
    lines: req.lines,
    carrierRef: null,
  };
}

export const ledgerCarrier: Carrier = {
  // Every parcel is booked before any is written: a refusal books none.
  createShipments: (q, reqs, now) => recordShipments(q, reqs.map(ledgerBooking), now),
  cancelShipment: recordShipmentCancelled,
};

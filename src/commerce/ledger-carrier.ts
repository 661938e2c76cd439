// The in-database carrier: records shipments with a tracking number, honouring `meta.simulate: ship_error`.
import { randomBytes } from 'node:crypto';
import { newCommerceId } from '../domain/commerce-ids.js';
import { RetryableError } from '../domain/errors.js';
import type { Carrier } from './carrier.js';
import { recordShipment, recordShipmentCancelled } from './shipment-records.js';

/** Name recorded on shipments booked through the in-database carrier. */
export const LEDGER_CARRIER_NAME = 'Demo Parcel';

export const ledgerCarrier: Carrier = {
  async createShipment(q, req, now) {
    // ship_error: the carrier refuses every attempt, so the step fails after its retries.
    if (req.simulate.has('ship_error')) throw new RetryableError('The carrier refused the shipment (simulated ship_error)', undefined, 'ship_error');
    const id = newCommerceId('shp');
    const trackingNumber = `DP${randomBytes(6).toString('hex').toUpperCase()}`;
    const carrier = req.service === 'courier' ? 'Local courier' : LEDGER_CARRIER_NAME;
    return recordShipment(q, { ...req, id, carrier, trackingNumber, carrierRef: null }, now);
  },

  cancelShipment: recordShipmentCancelled,
};

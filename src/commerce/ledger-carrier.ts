// The in-database carrier: records shipments with a tracking number, honouring `meta.simulate: ship_error`.
import { randomBytes } from 'node:crypto';
import { newCommerceId } from '../domain/commerce-ids.js';
import { RetryableError } from '../domain/errors.js';
import type { Carrier } from './carrier.js';

/** Name recorded on shipments booked through the in-database carrier. */
export const LEDGER_CARRIER_NAME = 'Demo Parcel';

export const ledgerCarrier: Carrier = {
  async createShipment(q, req, now) {
    // ship_error: the carrier refuses every attempt, so the step fails after its retries.
    if (req.simulate.has('ship_error')) throw new RetryableError('The carrier refused the shipment (simulated ship_error)', undefined, 'ship_error');
    const id = newCommerceId('shp');
    const trackingNumber = `DP${randomBytes(6).toString('hex').toUpperCase()}`;
    const carrier = req.service === 'courier' ? 'Local courier' : LEDGER_CARRIER_NAME;
    await q.query(
      `INSERT INTO shipments (id, order_id, generation, node_id, location_id, carrier, service, tracking_number, ship_to, lines, status, created_at)
       VALUES ($1, $2, $11, $3, $4, $5, $6, $7, $8, $9, 'shipped', $10)`,
      [id, req.orderId, req.nodeId, req.locationId, carrier, req.service, trackingNumber, JSON.stringify(req.shipTo ?? null), JSON.stringify(req.lines), now, req.generation],
    );
    return { id, locationId: req.locationId, carrier, service: req.service, trackingNumber };
  },

  async cancelShipment(q, shipmentId, now) {
    const res = await q.query(`UPDATE shipments SET status = 'cancelled', cancelled_at = $2 WHERE id = $1 AND status = 'shipped'`, [shipmentId, now]);
    return (res.rowCount ?? 0) > 0;
  },
};

// Port `shipments` in a simulation: shipments booked in memory as the in-database carrier books them (no carrier is told), cancelled on undo.
import { randomBytes } from 'node:crypto';
import { newCommerceId } from '../../domain/commerce-ids.js';
import { RetryableError } from '../../domain/errors.js';
import { LEDGER_CARRIER_NAME } from '../ledger-carrier.js';
import type { ShipmentsPort } from '../ports/shipments-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedShipmentsPort(ledger: SimulatedLedger): ShipmentsPort {
  const ofRun = (orderId: string, generation: number) => ledger.shipments.filter((s) => s.orderId === orderId && s.generation === generation);
  return {
    book: async (req) => {
      // ship_error: the carrier refuses every attempt, so the step fails after its retries (as the ledger carrier).
      if (req.simulate.has('ship_error')) throw new RetryableError('The carrier refused the shipment (simulated ship_error)', undefined, 'ship_error');
      const row = ledger.insert(ledger.shipments, {
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
        status: 'shipped',
        carrierRef: null,
      });
      return { id: row.id, locationId: row.locationId, carrier: row.carrier, service: row.service, trackingNumber: row.trackingNumber };
    },
    recordBooked: (shipment) => {
      const row = ledger.insert(ledger.shipments, { ...shipment, id: newCommerceId('shp'), status: 'shipped' });
      return Promise.resolve({ id: row.id, locationId: row.locationId, carrier: row.carrier, service: row.service, trackingNumber: row.trackingNumber });
    },
    cancel: (shipmentId) => {
      const row = ledger.shipments.find((s) => s.id === shipmentId && s.status === 'shipped');
      if (row) ledger.patch(row, { status: 'cancelled' });
      return Promise.resolve(row !== undefined);
    },
    liveOfNode: (orderId, generation, nodeId) =>
      Promise.resolve(ofRun(orderId, generation).filter((s) => s.nodeId === nodeId && s.status === 'shipped').map((s) => ({ id: s.id, carrierRef: s.carrierRef }))),
    anyLive: (orderId, generation) => Promise.resolve(ofRun(orderId, generation).some((s) => s.status === 'shipped')),
    cancelledOfRun: (orderId, generation) => Promise.resolve(ofRun(orderId, generation).filter((s) => s.status === 'cancelled').map((s) => s.id)),
  };
}

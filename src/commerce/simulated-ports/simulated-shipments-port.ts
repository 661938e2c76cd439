// Port `shipments` in a simulation: shipments booked in memory as the in-database carrier books them (no carrier is told), cancelled on undo.
import { newCommerceId } from '../../domain/commerce-ids.js';
import { ledgerBooking } from '../ledger-carrier.js';
import type { ShipmentsPort } from '../ports/shipments-port.js';
import { shipmentRecordOf } from '../shipment-records.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedShipmentsPort(ledger: SimulatedLedger): ShipmentsPort {
  const ofRun = (orderId: string, generation: number) => ledger.shipments.filter((s) => s.orderId === orderId && s.generation === generation);
  return {
    book: (reqs) => {
      // Every parcel is booked before any is kept, as the in-database carrier does (a refusal books none).
      const booked = reqs.map(ledgerBooking);
      return Promise.resolve(booked.map((s) => shipmentRecordOf(ledger.insert(ledger.shipments, { ...s, status: 'shipped' }))));
    },
    recordBooked: (shipments) => Promise.resolve(shipments.map((s) => shipmentRecordOf(ledger.insert(ledger.shipments, { ...s, id: newCommerceId('shp'), status: 'shipped' })))),
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

// Port `shipments` over a slice's store: the in-database carrier and the shipment records, reads through the reader, writes through the writer.
import type { StepStore } from '../../engine/step-store.js';
import { newCommerceId } from '../../domain/commerce-ids.js';
import { ledgerCarrier } from '../ledger-carrier.js';
import type { ShipmentsPort } from '../ports/shipments-port.js';
import { anyLiveShipment, cancelledShipmentIds, liveNodeShipments, recordShipment } from '../shipment-records.js';

export function shipmentsPort(store: StepStore): ShipmentsPort {
  return {
    book: (req, now) => ledgerCarrier.createShipment(store.writer, req, now),
    recordBooked: (shipment, now) => recordShipment(store.writer, { id: newCommerceId('shp'), ...shipment }, now),
    cancel: (shipmentId, now) => ledgerCarrier.cancelShipment(store.writer, shipmentId, now),
    liveOfNode: (orderId, generation, nodeId) => liveNodeShipments(store.reader, orderId, generation, nodeId),
    anyLive: (orderId, generation) => anyLiveShipment(store.reader, orderId, generation),
    cancelledOfRun: (orderId, generation) => cancelledShipmentIds(store.reader, orderId, generation),
  };
}

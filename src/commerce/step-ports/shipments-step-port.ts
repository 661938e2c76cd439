// Port `shipments` over a slice's store: the in-database carrier and the shipment records, reads through the reader, writes through the writer.
import type { StepStore } from '../../engine/step-store.js';
import { newCommerceId } from '../../domain/commerce-ids.js';
import { ledgerCarrier } from '../ledger-carrier.js';
import type { ShipmentsPort } from '../ports/shipments-port.js';
import { anyLiveShipment, cancelledShipmentIds, liveNodeShipments, recordShipments } from '../shipment-records.js';

export function shipmentsPort(store: StepStore): ShipmentsPort {
  return {
    book: (reqs, now) => ledgerCarrier.createShipments(store.writer, reqs, now),
    recordBooked: (shipments, now) => recordShipments(store.writer, shipments.map((s) => ({ id: newCommerceId('shp'), ...s })), now),
    cancel: (shipmentId, now) => ledgerCarrier.cancelShipment(store.writer, shipmentId, now),
    liveOfNode: (orderId, generation, nodeId) => liveNodeShipments(store.reader, orderId, generation, nodeId),
    anyLive: (orderId, generation) => anyLiveShipment(store.reader, orderId, generation),
    cancelledOfRun: (orderId, generation) => cancelledShipmentIds(store.reader, orderId, generation),
  };
}

// The carrier port over HTTP (docs/integrations.md): builds the booking and cancel requests and reads the booking's answer; pure, no I/O.
//
// A ship step books all its parcels in one request (a step makes one call per run) and, once
// the answer is read, records the same shipment rows the in-database carrier records
// (shipment-records.ts), the carrier's id in `carrier_ref`.
import type { ExternalAnswer, ExternalRequest } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import type { ShipmentLine } from './carrier.js';
import { adapterPost, remoteId, successBody, type AnswerMeaning, type StoredHttpAdapter } from './http-adapter.js';

const BOOK: AnswerMeaning = {
  refused: 'The carrier refused the shipment',
  refusedCode: 'shipment_refused',
  failed: 'The carrier failed to book the shipment',
  failedCode: 'ship_error',
};

/** The lines leaving one location: one parcel, one shipment. */
export interface Parcel {
  locationId: string;
  lines: readonly ShipmentLine[];
}

/** What the carrier booked for one parcel. */
export interface BookedShipment {
  carrierRef: string;
  carrier: string;
  trackingNumber: string;
}

/** `POST {url}/shipments`: one shipment per parcel. */
export function shipmentsRequest(adapter: StoredHttpAdapter, q: { orderId: string; service: string; shipTo: unknown; parcels: readonly Parcel[] }): ExternalRequest {
  return adapterPost(adapter, '/shipments', {
    orderId: q.orderId,
    service: q.service,
    shipTo: q.shipTo ?? null,
    parcels: q.parcels.map((p) => ({ locationId: p.locationId, lines: p.lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, qty: l.qty })) })),
  });
}

/** The booked shipments, one per parcel asked for, in parcel order; a refusal (4xx) is a TerminalError. */
export function shipmentsAnswer(answer: ExternalAnswer, parcels: number): BookedShipment[] {
  const list = successBody(answer, BOOK).shipments;
  if (!Array.isArray(list) || list.length !== parcels)
    throw new TerminalError(`${BOOK.failed}: the answer's \`shipments\` is not a list of ${parcels}`, BOOK.failedCode);
  return list.map((s, i) => {
    const shipment = typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : {};
    return {
      carrierRef: remoteId(shipment, 'id', BOOK, `shipments[${i}].id`),
      carrier: remoteId(shipment, 'carrier', BOOK, `shipments[${i}].carrier`),
      trackingNumber: remoteId(shipment, 'trackingNumber', BOOK, `shipments[${i}].trackingNumber`),
    };
  });
}

/** `POST {url}/shipments/cancel`: cancel the carrier's shipments of one step (an undo: its answer goes to the timeline). */
export function cancelShipmentsRequest(adapter: StoredHttpAdapter, q: { orderId: string; carrierRefs: readonly string[] }): ExternalRequest {
  return adapterPost(adapter, '/shipments/cancel', { orderId: q.orderId, shipments: [...q.carrierRefs] });
}

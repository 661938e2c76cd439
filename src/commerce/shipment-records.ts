// The shipment rows of an order's runs: a booked shipment and its cancellation, as every carrier adapter records them, and the reads its undo needs.
//
// The in-database carrier records them as its whole work; the HTTP carrier's ship step records
// the same rows once the carrier answered, the carrier's id in `carrier_ref`.
import type { Queryable } from '../db/db.js';
import type { ShipmentLine, ShipmentRecord } from './carrier.js';

export interface NewShipment {
  id: string;
  orderId: string;
  generation: number;
  nodeId: string;
  locationId: string;
  carrier: string;
  service: string;
  trackingNumber: string;
  shipTo: unknown;
  lines: readonly ShipmentLine[];
  /** The carrier's own id (HTTP carrier); null for the in-database carrier. */
  carrierRef: string | null;
}

/** Records shipments (one statement for all of them: a ship step's parcels) and answers them in the same order. */
export async function recordShipments(q: Queryable, shipments: readonly NewShipment[], now: number): Promise<ShipmentRecord[]> {
  if (shipments.length === 0) return [];
  await q.query(
    `INSERT INTO shipments (id, order_id, generation, node_id, location_id, carrier, service, tracking_number, ship_to, lines, status, created_at, carrier_ref)
     SELECT s.id, s.order_id, s.generation, s.node_id, s.location_id, s.carrier, s.service, s.tracking_number, s.ship_to, s.lines, 'shipped', $2, s.carrier_ref
       FROM jsonb_to_recordset($1::jsonb) AS s(id text, order_id text, generation int, node_id text, location_id text, carrier text, service text,
                                              tracking_number text, ship_to jsonb, lines jsonb, carrier_ref text)`,
    [
      JSON.stringify(
        shipments.map((s) => ({
          id: s.id,
          order_id: s.orderId,
          generation: s.generation,
          node_id: s.nodeId,
          location_id: s.locationId,
          carrier: s.carrier,
          service: s.service,
          tracking_number: s.trackingNumber,
          ship_to: s.shipTo ?? null,
          lines: s.lines,
          carrier_ref: s.carrierRef,
        })),
      ),
      now,
    ],
  );
  return shipments.map(shipmentRecordOf);
}

/** What a booking answers of a shipment row. */
export function shipmentRecordOf(s: Pick<NewShipment, 'id' | 'locationId' | 'carrier' | 'service' | 'trackingNumber'>): ShipmentRecord {
  return { id: s.id, locationId: s.locationId, carrier: s.carrier, service: s.service, trackingNumber: s.trackingNumber };
}

/** Marks a live shipment cancelled; false when it was not live. */
export async function recordShipmentCancelled(q: Queryable, shipmentId: string, now: number): Promise<boolean> {
  const res = await q.query(`UPDATE shipments SET status = 'cancelled', cancelled_at = $2 WHERE id = $1 AND status = 'shipped'`, [shipmentId, now]);
  return (res.rowCount ?? 0) > 0;
}

/** The live (shipped) shipments one node of the run booked, with the HTTP carrier's id (null for the in-database carrier). */
export async function liveNodeShipments(q: Queryable, orderId: string, generation: number, nodeId: string): Promise<{ id: string; carrierRef: string | null }[]> {
  const { rows } = await q.query<{ id: string; carrier_ref: string | null }>(
    `SELECT id, carrier_ref FROM shipments WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'shipped'`,
    [orderId, generation, nodeId],
  );
  return rows.map((r) => ({ id: r.id, carrierRef: r.carrier_ref }));
}

/** Whether any shipment of the order's run is still live (shipped, not cancelled). */
export async function anyLiveShipment(q: Queryable, orderId: string, generation: number): Promise<boolean> {
  const { rows } = await q.query(`SELECT 1 FROM shipments WHERE order_id = $1 AND generation = $2 AND status = 'shipped' LIMIT 1`, [orderId, generation]);
  return rows.length > 0;
}

/** The ids of the run's cancelled shipments. */
export async function cancelledShipmentIds(q: Queryable, orderId: string, generation: number): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(`SELECT id FROM shipments WHERE order_id = $1 AND generation = $2 AND status = 'cancelled'`, [orderId, generation]);
  return rows.map((r) => r.id);
}

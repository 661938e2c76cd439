// Stock bookkeeping: reservations against stock_levels, consuming them when goods leave, releasing and restocking on undo.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import type { StockCandidate } from '../domain/stock-allocation.js';

export interface ReservationRow {
  id: string;
  lineNo: number;
  sku: string;
  locationId: string;
  qty: number;
  status: 'reserved' | 'released' | 'consumed' | 'restocked';
  shipmentId: string | null;
  pickupId: string | null;
}

function toReservation(r: any): ReservationRow {
  return {
    id: r.id,
    lineNo: r.line_no,
    sku: r.sku,
    locationId: r.location_id,
    qty: r.qty,
    status: r.status,
    shipmentId: r.shipment_id,
    pickupId: r.pickup_id,
  };
}

/** Free stock of each SKU per location, with the location's kind and coordinates. */
export async function stockCandidates(q: Queryable, skus: readonly string[]): Promise<Map<string, StockCandidate[]>> {
  const out = new Map<string, StockCandidate[]>();
  if (skus.length === 0) return out;
  const { rows } = await q.query(
    `SELECT s.sku, s.location_id, s.on_hand - s.reserved AS available, l.kind, l.latitude, l.longitude
       FROM stock_levels s JOIN locations l ON l.id = s.location_id
      WHERE s.sku = ANY($1::text[]) ORDER BY s.sku, s.location_id`,
    [[...new Set(skus)]],
  );
  for (const r of rows) {
    const list = out.get(r.sku) ?? [];
    list.push({ locationId: r.location_id, kind: r.kind, latitude: Number(r.latitude), longitude: Number(r.longitude), available: Number(r.available) });
    out.set(r.sku, list);
  }
  return out;
}

/** The order's reservations in this run (generation), optionally only some statuses. */
export async function reservationsOf(q: Queryable, orderId: string, generation: number, statuses?: readonly string[]): Promise<ReservationRow[]> {
  const { rows } = await q.query(
    `SELECT * FROM stock_reservations WHERE order_id = $1 AND generation = $2 ${statuses ? 'AND status = ANY($3::text[])' : ''}
      ORDER BY line_no, created_at, id`,
    statuses ? [orderId, generation, [...statuses]] : [orderId, generation],
  );
  return rows.map(toReservation);
}

/**
 * Holds `qty` units at a location (stock_levels.reserved += qty) when that many are free.
 * Returns the reservation, or null when the location does not have them (nothing written).
 */
export async function reserveAt(
  q: Queryable,
  r: { orderId: string; generation: number; nodeId: string; lineNo: number; sku: string; locationId: string; qty: number },
  now: number,
): Promise<ReservationRow | null> {
  const held = await q.query(
    `UPDATE stock_levels SET reserved = reserved + $3, updated_at = $4
      WHERE sku = $1 AND location_id = $2 AND on_hand - reserved >= $3`,
    [r.sku, r.locationId, r.qty, now],
  );
  if ((held.rowCount ?? 0) === 0) return null;
  const id = newCommerceId('res');
  const { rows } = await q.query(
    `INSERT INTO stock_reservations (id, order_id, generation, node_id, line_no, sku, location_id, qty, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'reserved', $9, $9) RETURNING *`,
    [id, r.orderId, r.generation, r.nodeId, r.lineNo, r.sku, r.locationId, r.qty, now],
  );
  return toReservation(rows[0]);
}

/** Releases every still-held reservation of the order's run; returns how many units went back. */
export async function releaseReservations(q: Queryable, orderId: string, generation: number, now: number): Promise<ReservationRow[]> {
  const { rows } = await q.query(
    `UPDATE stock_reservations SET status = 'released', updated_at = $3
      WHERE order_id = $1 AND generation = $2 AND status = 'reserved' RETURNING *`,
    [orderId, generation, now],
  );
  for (const r of rows)
    await q.query('UPDATE stock_levels SET reserved = reserved - $3, updated_at = $4 WHERE sku = $1 AND location_id = $2', [r.sku, r.location_id, r.qty, now]);
  return rows.map(toReservation);
}

/** Goods left the building: the reservations become consumed (on_hand and reserved both drop). */
export async function consumeReservations(
  q: Queryable,
  ids: readonly string[],
  link: { shipmentId?: string; pickupId?: string },
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await q.query(
    `UPDATE stock_reservations SET status = 'consumed', shipment_id = coalesce($2, shipment_id), pickup_id = coalesce($3, pickup_id), updated_at = $4
      WHERE id = ANY($1::text[]) AND status = 'reserved' RETURNING *`,
    [[...ids], link.shipmentId ?? null, link.pickupId ?? null, now],
  );
  for (const r of rows)
    await q.query(
      'UPDATE stock_levels SET on_hand = on_hand - $3, reserved = reserved - $3, updated_at = $4 WHERE sku = $1 AND location_id = $2',
      [r.sku, r.location_id, r.qty, now],
    );
}

/** Attaches held reservations to a staged pickup (they stay held until handover). */
export async function linkPickup(q: Queryable, ids: readonly string[], pickupId: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await q.query(`UPDATE stock_reservations SET pickup_id = $2, updated_at = $3 WHERE id = ANY($1::text[])`, [[...ids], pickupId, now]);
}

/** Puts the units of consumed reservations back on the shelf (their shipments were cancelled). */
export async function restockShipments(q: Queryable, shipmentIds: readonly string[], now: number): Promise<number> {
  if (shipmentIds.length === 0) return 0;
  const { rows } = await q.query(
    `UPDATE stock_reservations SET status = 'restocked', updated_at = $2
      WHERE shipment_id = ANY($1::text[]) AND status = 'consumed' RETURNING *`,
    [[...shipmentIds], now],
  );
  for (const r of rows)
    await q.query('UPDATE stock_levels SET on_hand = on_hand + $3, updated_at = $4 WHERE sku = $1 AND location_id = $2', [r.sku, r.location_id, r.qty, now]);
  return rows.reduce((n, r) => n + r.qty, 0);
}

// Stock bookkeeping: reservations against stock_levels, consuming them when goods leave, releasing and restocking on undo.
import type { Queryable } from '../db/db.js';
import { cachedRows, forgetRows, seedRead } from '../db/transaction-read-cache.js';
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

/** A `stock_reservations` row as pg returns it (bigint columns as text). */
interface ReservationDbRow {
  id: string;
  line_no: number;
  sku: string;
  location_id: string;
  qty: number;
  status: ReservationRow['status'];
  shipment_id: string | null;
  pickup_id: string | null;
  created_at: string;
}

function toReservation(r: ReservationDbRow): ReservationRow {
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
  const { rows } = await q.query<{ sku: string; location_id: string; available: number; kind: StockCandidate['kind']; latitude: number; longitude: number }>(
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

/** The statuses of reservations that hold (or held) the order's goods in a run: what a reserving step looks for first. */
export const HELD_STATUSES: readonly string[] = ['reserved', 'consumed'];

/** The read behind reservationsOf (also the key of the slice's cached copy). */
function reservationsRead(orderId: string, generation: number, statuses?: readonly string[]): { text: string; values: unknown[] } {
  return {
    text: `SELECT * FROM stock_reservations WHERE order_id = $1 AND generation = $2 ${statuses ? 'AND status = ANY($3::text[])' : ''}
      ORDER BY line_no, created_at, id`,
    values: statuses ? [orderId, generation, [...statuses]] : [orderId, generation],
  };
}

/** The order's reservations in this run (generation), optionally only some statuses (in a slice, through its read cache). */
export async function reservationsOf(q: Queryable, orderId: string, generation: number, statuses?: readonly string[]): Promise<ReservationRow[]> {
  const { text, values } = reservationsRead(orderId, generation, statuses);
  return (await cachedRows<ReservationDbRow>(q, 'stock_reservations', text, values)).map(toReservation);
}

/** One line to hold at one location (what `reserveAll` takes). */
export interface ReservationRequest {
  lineNo: number;
  sku: string;
  locationId: string;
  qty: number;
}

/**
 * Holds the lines' units in one statement: `stock_levels.reserved` grows by the units asked of
 * each (SKU, location), only where that many are free, and a reservation row is written for
 * each line whose (SKU, location) could give them. Returns the reservations written, in line
 * order; a line missing from the result had no stock (the caller fails the step, and the
 * step's rollback undoes what the statement held for the other lines).
 */
export async function reserveAll(
  q: Queryable,
  order: { orderId: string; generation: number; nodeId: string },
  lines: readonly ReservationRequest[],
  now: number,
): Promise<ReservationRow[]> {
  if (lines.length === 0) return [];
  const wanted = lines.map((l) => ({ id: newCommerceId('res'), line_no: l.lineNo, sku: l.sku, location_id: l.locationId, qty: l.qty }));
  const { rows } = await q.query<ReservationDbRow & { added_now: boolean }>(
    `WITH want AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS w(id text, line_no int, sku text, location_id text, qty int)),
          asked AS (SELECT sku, location_id, sum(qty)::int AS qty FROM want GROUP BY sku, location_id),
          held AS (
            UPDATE stock_levels s SET reserved = s.reserved + a.qty, updated_at = $5
              FROM asked a
             WHERE s.sku = a.sku AND s.location_id = a.location_id AND s.on_hand - s.reserved >= a.qty
            RETURNING s.sku, s.location_id),
          added AS (
            INSERT INTO stock_reservations (id, order_id, generation, node_id, line_no, sku, location_id, qty, status, created_at, updated_at)
            SELECT w.id, $2, $3, $4, w.line_no, w.sku, w.location_id, w.qty, 'reserved', $5, $5
              FROM want w JOIN held h ON h.sku = w.sku AND h.location_id = w.location_id
            RETURNING *)
     SELECT true AS added_now, * FROM added
     UNION ALL
     SELECT false, * FROM stock_reservations WHERE order_id = $2 AND generation = $3 AND status = ANY($6::text[])`,
    [JSON.stringify(wanted), order.orderId, order.generation, order.nodeId, now, [...HELD_STATUSES]],
  );
  // The run's held reservations after this statement (the UNION's second part reads the rows as they were before it):
  // a later step of the slice looking for them (ship after reserve) reads them from the slice's cache.
  const held = rows
    .map(({ added_now: _, ...row }) => row)
    .sort((a, b) => a.line_no - b.line_no || Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  forgetRows(q, 'stock_reservations');
  seedRead(q, { table: 'stock_reservations', ...reservationsRead(order.orderId, order.generation, HELD_STATUSES), rows: held });
  return rows.filter((r) => r.added_now).map(toReservation).sort((a, b) => a.lineNo - b.lineNo);
}

/** How `stock_levels` moves when reservations change status (`m.qty`: their units per SKU and location). */
const STOCK_MOVES = {
  /** Released: the units are free again. */
  release: 'reserved = s.reserved - m.qty',
  /** Consumed: the units left the building. */
  consume: 'on_hand = s.on_hand - m.qty, reserved = s.reserved - m.qty',
  /** Restocked: consumed units are back on the shelf. */
  restock: 'on_hand = s.on_hand + m.qty',
} as const;

/**
 * Changes reservations' status and moves the stock they account for in one statement: the
 * reservations matching `where` become `status`, and each (SKU, location) they hold moves by the
 * sum of their units (STOCK_MOVES; a data-modifying WITH runs whether or not the SELECT reads it).
 * Returns the changed reservations.
 */
async function settleReservations(
  q: Queryable,
  move: keyof typeof STOCK_MOVES,
  set: string,
  where: string,
  values: unknown[],
  now: number,
  /** A FROM list the update joins (`where` then names the reservations' columns `stock_reservations.<column>`). */
  from?: string,
): Promise<ReservationRow[]> {
  const at = values.length + 1;
  const { rows } = await q.query<ReservationDbRow>(
    `WITH changed AS (
       UPDATE stock_reservations SET ${set}, updated_at = $${at}${from ? ` FROM ${from}` : ''} WHERE ${where} RETURNING stock_reservations.*),
     moved AS (SELECT sku, location_id, sum(qty)::int AS qty FROM changed GROUP BY sku, location_id),
     stock AS (
       UPDATE stock_levels s SET ${STOCK_MOVES[move]}, updated_at = $${at}
         FROM moved m WHERE s.sku = m.sku AND s.location_id = m.location_id)
     SELECT * FROM changed ORDER BY line_no, created_at, id`,
    [...values, now],
  );
  forgetRows(q, 'stock_reservations');
  return rows.map(toReservation);
}

/** Releases every still-held reservation of the order's run; returns how many units went back. */
export async function releaseReservations(q: Queryable, orderId: string, generation: number, now: number): Promise<ReservationRow[]> {
  return settleReservations(q, 'release', "status = 'released'", "order_id = $1 AND generation = $2 AND status = 'reserved'", [orderId, generation], now);
}

/** Releases the still-held reservations one node of the run made (an external ship step that never booked). */
export async function releaseNodeReservations(q: Queryable, orderId: string, generation: number, nodeId: string, now: number): Promise<ReservationRow[]> {
  return settleReservations(q, 'release', "status = 'released'", "order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'reserved'", [orderId, generation, nodeId], now);
}

/** Goods left the building: the reservations become consumed (on_hand and reserved both drop). */
export async function consumeReservations(
  q: Queryable,
  ids: readonly string[],
  link: { shipmentId?: string; pickupId?: string },
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  await settleReservations(
    q,
    'consume',
    "status = 'consumed', shipment_id = coalesce($2, shipment_id), pickup_id = coalesce($3, pickup_id)",
    "id = ANY($1::text[]) AND status = 'reserved'",
    [[...ids], link.shipmentId ?? null, link.pickupId ?? null],
    now,
  );
}

/**
 * Shipped parcels left the building: each parcel's held reservations become consumed, linked to its shipment (one
 * statement for every parcel of a ship step).
 */
export async function consumeShipped(q: Queryable, parcels: readonly { shipmentId: string; reservationIds: readonly string[] }[], now: number): Promise<void> {
  const pairs = parcels.flatMap((p) => p.reservationIds.map((id) => [id, p.shipmentId] as const));
  if (pairs.length === 0) return;
  await settleReservations(
    q,
    'consume',
    "status = 'consumed', shipment_id = m.shipment_id",
    "stock_reservations.id = m.id AND stock_reservations.status = 'reserved'",
    [pairs.map(([id]) => id), pairs.map(([, shipmentId]) => shipmentId)],
    now,
    'unnest($1::text[], $2::text[]) AS m(id, shipment_id)',
  );
}

/** Attaches held reservations to a staged pickup (they stay held until handover). */
export async function linkPickup(q: Queryable, ids: readonly string[], pickupId: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await q.query(`UPDATE stock_reservations SET pickup_id = $2, updated_at = $3 WHERE id = ANY($1::text[])`, [[...ids], pickupId, now]);
  forgetRows(q, 'stock_reservations');
}

/** Puts the units of consumed reservations back on the shelf (their shipments were cancelled). */
export async function restockShipments(q: Queryable, shipmentIds: readonly string[], now: number): Promise<number> {
  if (shipmentIds.length === 0) return 0;
  const rows = await settleReservations(q, 'restock', "status = 'restocked'", "shipment_id = ANY($1::text[]) AND status = 'consumed'", [[...shipmentIds]], now);
  return rows.reduce((n, r) => n + r.qty, 0);
}

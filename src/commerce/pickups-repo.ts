// Store pickups: goods staged at a store with a collection code, handed over to the buyer, or cancelled on undo.
import type { Queryable } from '../db/db.js';
import { newCommerceId, newHumanCode } from '../domain/commerce-ids.js';

/** One line a pickup holds, as its `lines` column keeps them. */
export interface PickupLine {
  lineNo: number;
  sku: string;
  qty: number;
}

export interface NewPickup {
  orderId: string;
  generation: number;
  nodeId: string;
  locationId: string;
  lines: readonly PickupLine[];
}

/** Stages a pickup: a new `staged` row with a fresh id and a collection code of two groups of four. */
export async function stagePickup(q: Queryable, p: NewPickup, now: number): Promise<{ id: string; code: string }> {
  const id = newCommerceId('pu');
  const code = newHumanCode(2, 4);
  await q.query(
    `INSERT INTO pickups (id, order_id, generation, node_id, location_id, code, lines, status, staged_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'staged', $8)`,
    [id, p.orderId, p.generation, p.nodeId, p.locationId, code, JSON.stringify(p.lines), now],
  );
  return { id, code };
}

/** Cancels the pickups one node of the run staged that are still staged (not handed over). */
export async function cancelStagedPickups(q: Queryable, orderId: string, generation: number, nodeId: string, now: number): Promise<void> {
  await q.query(
    `UPDATE pickups SET status = 'cancelled', cancelled_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'staged'`,
    [orderId, generation, nodeId, now],
  );
}

/** The run's first staged pickup (by staging time), or null. */
export async function stagedPickup(q: Queryable, orderId: string, generation: number): Promise<{ id: string; locationId: string } | null> {
  const { rows } = await q.query<{ id: string; location_id: string }>(
    `SELECT id, location_id FROM pickups WHERE order_id = $1 AND generation = $2 AND status = 'staged' ORDER BY staged_at LIMIT 1`,
    [orderId, generation],
  );
  return rows[0] ? { id: rows[0].id, locationId: rows[0].location_id } : null;
}

/** The buyer collected a pickup: it becomes `handed_over`. */
export async function markPickupHandedOver(q: Queryable, pickupId: string, now: number): Promise<void> {
  await q.query(`UPDATE pickups SET status = 'handed_over', handed_over_at = $2 WHERE id = $1`, [pickupId, now]);
}

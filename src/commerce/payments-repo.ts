// The order's payment rows as the payment steps read them: open authorizations, and charges with what is left to refund.
import type { Queryable } from '../db/db.js';

/** An authorization not captured or voided, by its id and the gateway's id of the hold. */
export interface OpenAuthorization {
  id: string;
  gatewayRef: string;
}

/** A charge (capture or direct charge) with the part of it no succeeded refund gave back yet. */
export interface RefundableCharge {
  id: string;
  gatewayRef: string;
  /** Minor units still refundable: the charge less its succeeded refunds (always above 0). */
  openMinor: number;
}

/** The node's open authorizations in the run `generation`, newest first (what its undo voids). */
export async function openAuthorizationsOfNode(q: Queryable, orderId: string, generation: number, nodeId: string): Promise<OpenAuthorization[]> {
  const { rows } = await q.query<{ id: string; gateway_ref: string }>(
    `SELECT id, gateway_ref FROM payment_authorizations WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'authorized'
      ORDER BY created_at DESC, id DESC`,
    [orderId, generation, nodeId],
  );
  return rows.map((r) => ({ id: r.id, gatewayRef: r.gateway_ref }));
}

/** The run's latest open authorization with its amount (what a capture takes), or null. */
export async function latestOpenAuthorization(q: Queryable, orderId: string, generation: number): Promise<(OpenAuthorization & { amountMinor: number }) | null> {
  const { rows } = await q.query<{ id: string; amount_minor: string; gateway_ref: string }>(
    `SELECT id, amount_minor, gateway_ref FROM payment_authorizations
      WHERE order_id = $1 AND generation = $2 AND status = 'authorized' ORDER BY created_at DESC, id DESC LIMIT 1`,
    [orderId, generation],
  );
  return rows[0] ? { id: rows[0].id, amountMinor: Number(rows[0].amount_minor), gatewayRef: rows[0].gateway_ref } : null;
}

/**
 * The charges the node made in the run `generation` that still have money to refund, with their
 * currency (what its rollback gives back), in the order the database returns them.
 */
export async function refundableChargesOfNode(q: Queryable, orderId: string, generation: number, nodeId: string): Promise<(RefundableCharge & { currency: string })[]> {
  const { rows } = await q.query<{ id: string; amount_minor: string; currency: string; gateway_ref: string; open_minor: string }>(
    `SELECT c.id, c.amount_minor, c.currency, c.gateway_ref,
            c.amount_minor - coalesce((SELECT sum(r.amount_minor) FROM refunds r WHERE r.charge_id = c.id AND r.status = 'succeeded'), 0) AS open_minor
       FROM payment_charges c WHERE c.order_id = $1 AND c.generation = $2 AND c.node_id = $3`,
    [orderId, generation, nodeId],
  );
  return rows.map((c) => ({ id: c.id, currency: c.currency, gatewayRef: c.gateway_ref, openMinor: Number(c.open_minor) })).filter((c) => c.openMinor > 0);
}

/** Every charge of the order that still has money to refund, latest first (what a refund step gives back from). */
export async function refundableChargesOfOrder(q: Queryable, orderId: string): Promise<RefundableCharge[]> {
  const { rows } = await q.query<{ id: string; gateway_ref: string; open_minor: string }>(
    `SELECT c.id, c.gateway_ref, c.amount_minor - coalesce((SELECT sum(r.amount_minor) FROM refunds r WHERE r.charge_id = c.id AND r.status = 'succeeded'), 0) AS open_minor
       FROM payment_charges c WHERE c.order_id = $1 ORDER BY c.created_at DESC, c.id DESC`,
    [orderId],
  );
  return rows.map((r) => ({ id: r.id, gatewayRef: r.gateway_ref, openMinor: Number(r.open_minor) })).filter((c) => c.openMinor > 0);
}

// The payment rows every gateway adapter records in the order's transaction: authorizations, captures, voids, charges, refunds.
//
// The in-database ledger records them as its whole work; the HTTP adapter's steps record the
// same rows once the remote gateway answered, its id in `gateway_ref`. Either way the order,
// its outputs, payouts and the API read the same tables.
import type { Queryable } from '../db/db.js';
import { TerminalError } from '../domain/errors.js';
import type { AuthorizationRecord } from './payment-gateway.js';

/** A `payment_authorizations` row as pg returns it (bigint columns as text). */
interface AuthorizationDbRow {
  id: string;
  order_id: string;
  amount_minor: string;
  currency: string;
  status: AuthorizationRecord['status'];
  captured_minor: string;
  released_minor: string;
}

function toAuthorization(r: AuthorizationDbRow): AuthorizationRecord {
  return {
    id: r.id,
    orderId: r.order_id,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    status: r.status,
    capturedMinor: Number(r.captured_minor),
    releasedMinor: Number(r.released_minor),
  };
}

export async function recordAuthorization(
  q: Queryable,
  a: { id: string; orderId: string; generation: number; nodeId: string; amountMinor: number; currency: string; gatewayRef: string },
  now: number,
): Promise<AuthorizationRecord> {
  const { rows } = await q.query<AuthorizationDbRow>(
    `INSERT INTO payment_authorizations (id, order_id, generation, node_id, amount_minor, currency, status, gateway_ref, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'authorized', $7, $8) RETURNING *`,
    [a.id, a.orderId, a.generation, a.nodeId, a.amountMinor, a.currency, a.gatewayRef, now],
  );
  return toAuthorization(rows[0]);
}

/**
 * Captures `amountMinor` of a capturable authorization, releasing the rest, and books the charge
 * `chargeId`; a TerminalError says why when the authorization cannot be captured.
 */
export async function recordCapture(
  q: Queryable,
  c: { authorizationId: string; amountMinor: number; chargeId: string; generation: number; nodeId: string; gatewayRef: string },
  now: number,
): Promise<{ chargeId: string; capturedMinor: number; releasedMinor: number }> {
  // One statement captures a capturable authorization and books the charge; when it changes nothing, the read below says why.
  if (Number.isSafeInteger(c.amountMinor) && c.amountMinor >= 0) {
    const { rows } = await q.query<{ released_minor: string }>(
      `WITH a AS (
         UPDATE payment_authorizations SET status = 'captured', captured_minor = $2, released_minor = amount_minor - $2, captured_at = $3
          WHERE id = $1 AND status = 'authorized' AND amount_minor >= $2 RETURNING *),
       c AS (
         INSERT INTO payment_charges (id, order_id, generation, node_id, kind, authorization_id, amount_minor, currency, method, gateway_ref, created_at)
         SELECT $4, a.order_id, $5, $6, 'capture', a.id, $2, a.currency, 'card', $7, $3 FROM a)
       SELECT released_minor FROM a`,
      [c.authorizationId, c.amountMinor, now, c.chargeId, c.generation, c.nodeId, c.gatewayRef],
    );
    if (rows.length > 0) return { chargeId: c.chargeId, capturedMinor: c.amountMinor, releasedMinor: Number(rows[0].released_minor) };
  }
  const { rows } = await q.query<AuthorizationDbRow>('SELECT * FROM payment_authorizations WHERE id = $1', [c.authorizationId]);
  const auth = rows[0] ? toAuthorization(rows[0]) : null;
  if (!auth) throw new TerminalError(`Authorization ${c.authorizationId} not found`);
  if (auth.status !== 'authorized') throw new TerminalError(`Authorization ${auth.id} is ${auth.status}, not capturable`);
  throw new TerminalError(`Cannot capture ${c.amountMinor} of an authorization of ${auth.amountMinor}`);
}

/** Marks an authorization that was not captured voided (all of it released); false when there was nothing to void. */
export async function recordVoid(q: Queryable, authorizationId: string, now: number): Promise<boolean> {
  const res = await q.query(
    `UPDATE payment_authorizations SET status = 'voided', released_minor = amount_minor, voided_at = $2
     WHERE id = $1 AND status = 'authorized'`,
    [authorizationId, now],
  );
  return (res.rowCount ?? 0) > 0;
}

export async function recordCharge(
  q: Queryable,
  c: { id: string; orderId: string; generation: number; nodeId: string; amountMinor: number; currency: string; method: string; gatewayRef: string },
  now: number,
): Promise<void> {
  await q.query(
    `INSERT INTO payment_charges (id, order_id, generation, node_id, kind, amount_minor, currency, method, gateway_ref, created_at)
     VALUES ($1, $2, $3, $4, 'charge', $5, $6, $7, $8, $9)`,
    [c.id, c.orderId, c.generation, c.nodeId, c.amountMinor, c.currency, c.method, c.gatewayRef, now],
  );
}

/** A succeeded refund; `gatewayRef` is null when an undo asked the gateway after recording it (the answer goes to the timeline). */
export async function recordRefund(
  q: Queryable,
  r: { id: string; orderId: string; nodeId: string; chargeId: string | null; amountMinor: number; currency: string; reason: string | null; gatewayRef: string | null },
  now: number,
): Promise<void> {
  await q.query(
    `INSERT INTO refunds (id, order_id, node_id, charge_id, amount_minor, currency, status, reason, gateway_ref, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'succeeded', $7, $8, $9)`,
    [r.id, r.orderId, r.nodeId, r.chargeId, r.amountMinor, r.currency, r.reason, r.gatewayRef, now],
  );
}

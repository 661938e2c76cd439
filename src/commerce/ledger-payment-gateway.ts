// The in-database payment gateway: records authorizations, charges and refunds, honouring `meta.simulate`.
import type { Queryable } from '../db/db.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import { RetryableError, TerminalError } from '../domain/errors.js';
import type { AuthorizationRecord, PaymentGateway } from './payment-gateway.js';

function toAuthorization(r: any): AuthorizationRecord {
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

/** Gateway references look like a processor's: `ledger_` + random hex. */
const ref = () => newCommerceId('ledger');

export const ledgerPaymentGateway: PaymentGateway = {
  async authorize(q, req, now) {
    // card_declined: the issuer refuses; retrying the same card changes nothing.
    if (req.simulate.has('card_declined')) throw new TerminalError('Card declined (simulated card_declined)', 'card_declined');
    const id = newCommerceId('auth');
    const { rows } = await q.query(
      `INSERT INTO payment_authorizations (id, order_id, generation, node_id, amount_minor, currency, status, gateway_ref, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'authorized', $7, $8) RETURNING *`,
      [id, req.orderId, req.generation, req.nodeId, req.amountMinor, req.currency, ref(), now],
    );
    return toAuthorization(rows[0]);
  },

  async capture(q, req, now) {
    if (req.simulate.has('capture_error')) throw new RetryableError('The payment gateway failed to capture (simulated capture_error)', undefined, 'capture_error');
    const chargeId = newCommerceId('ch');
    // One statement captures a capturable authorization and books the charge; when it changes nothing, the read below says why.
    if (Number.isSafeInteger(req.amountMinor) && req.amountMinor >= 0) {
      const { rows } = await q.query(
        `WITH a AS (
           UPDATE payment_authorizations SET status = 'captured', captured_minor = $2, released_minor = amount_minor - $2, captured_at = $3
            WHERE id = $1 AND status = 'authorized' AND amount_minor >= $2 RETURNING *),
         c AS (
           INSERT INTO payment_charges (id, order_id, generation, node_id, kind, authorization_id, amount_minor, currency, method, gateway_ref, created_at)
           SELECT $4, a.order_id, $5, $6, 'capture', a.id, $2, a.currency, 'card', $7, $3 FROM a)
         SELECT released_minor FROM a`,
        [req.authorizationId, req.amountMinor, now, chargeId, req.generation, req.nodeId, ref()],
      );
      if (rows.length > 0) return { chargeId, capturedMinor: req.amountMinor, releasedMinor: Number(rows[0].released_minor) };
    }
    const { rows } = await q.query('SELECT * FROM payment_authorizations WHERE id = $1', [req.authorizationId]);
    const auth = rows[0] ? toAuthorization(rows[0]) : null;
    if (!auth) throw new TerminalError(`Authorization ${req.authorizationId} not found`);
    if (auth.status !== 'authorized') throw new TerminalError(`Authorization ${auth.id} is ${auth.status}, not capturable`);
    throw new TerminalError(`Cannot capture ${req.amountMinor} of an authorization of ${auth.amountMinor}`);
  },

  async void(q, authorizationId, now) {
    const res = await q.query(
      `UPDATE payment_authorizations SET status = 'voided', released_minor = amount_minor, voided_at = $2
       WHERE id = $1 AND status = 'authorized'`,
      [authorizationId, now],
    );
    return (res.rowCount ?? 0) > 0;
  },

  async charge(q, req, now) {
    if (req.simulate.has('card_declined')) throw new TerminalError('Card declined (simulated card_declined)', 'card_declined');
    const chargeId = newCommerceId('ch');
    await q.query(
      `INSERT INTO payment_charges (id, order_id, generation, node_id, kind, amount_minor, currency, method, gateway_ref, created_at)
       VALUES ($1, $2, $3, $4, 'charge', $5, $6, $7, $8, $9)`,
      [chargeId, req.orderId, req.generation, req.nodeId, req.amountMinor, req.currency, req.method, ref(), now],
    );
    return { chargeId };
  },

  async refund(q, req, now) {
    if (req.simulate.has('refund_error')) throw new RetryableError('The payment gateway failed to refund (simulated refund_error)', undefined, 'refund_error');
    const refundId = newCommerceId('re');
    await q.query(
      `INSERT INTO refunds (id, order_id, node_id, charge_id, amount_minor, currency, status, reason, gateway_ref, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'succeeded', $7, $8, $9)`,
      [refundId, req.orderId, req.nodeId, req.chargeId, req.amountMinor, req.currency, req.reason, ref(), now],
    );
    return { refundId };
  },
};

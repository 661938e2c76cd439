// The in-database payment gateway: records authorizations, charges and refunds, honouring `meta.simulate`.
import { newCommerceId } from '../domain/commerce-ids.js';
import { RetryableError, TerminalError } from '../domain/errors.js';
import type { PaymentGateway } from './payment-gateway.js';
import { recordAuthorization, recordCapture, recordCharge, recordRefund, recordVoid } from './payment-records.js';

/** Gateway references look like a processor's: `ledger_` + random hex. */
const ref = () => newCommerceId('ledger');

export const ledgerPaymentGateway: PaymentGateway = {
  async authorize(q, req, now) {
    // card_declined: the issuer refuses; retrying the same card changes nothing.
    if (req.simulate.has('card_declined')) throw new TerminalError('Card declined (simulated card_declined)', 'card_declined');
    return recordAuthorization(q, { ...req, id: newCommerceId('auth'), gatewayRef: ref() }, now);
  },

  async capture(q, req, now) {
    if (req.simulate.has('capture_error')) throw new RetryableError('The payment gateway failed to capture (simulated capture_error)', undefined, 'capture_error');
    return recordCapture(q, { ...req, chargeId: newCommerceId('ch'), gatewayRef: ref() }, now);
  },

  void: recordVoid,

  async charge(q, req, now) {
    if (req.simulate.has('card_declined')) throw new TerminalError('Card declined (simulated card_declined)', 'card_declined');
    const chargeId = newCommerceId('ch');
    await recordCharge(q, { ...req, id: chargeId, gatewayRef: ref() }, now);
    return { chargeId };
  },

  async refund(q, req, now) {
    if (req.simulate.has('refund_error')) throw new RetryableError('The payment gateway failed to refund (simulated refund_error)', undefined, 'refund_error');
    const refundId = newCommerceId('re');
    await recordRefund(q, { ...req, id: refundId, gatewayRef: ref() }, now);
    return { refundId };
  },
};

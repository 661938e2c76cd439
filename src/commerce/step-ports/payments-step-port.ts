// The `payments` port over a slice's store: the in-database ledger gateway, the payment records an HTTP gateway's answer writes, the payment reads.
import type { StepStore } from '../../engine/step-store.js';
import { newCommerceId } from '../../domain/commerce-ids.js';
import { ledgerPaymentGateway } from '../ledger-payment-gateway.js';
import { recordAuthorization, recordCapture, recordCharge, recordRefund, recordVoid } from '../payment-records.js';
import { latestOpenAuthorization, openAuthorizationsOfNode, refundableChargesOfNode, refundableChargesOfOrder } from '../payments-repo.js';
import { succeededRefundsMinor } from '../payouts-repo.js';
import type { PaymentsPort } from '../ports/payments-port.js';

export function paymentsPort(store: StepStore): PaymentsPort {
  const { reader, writer } = store;
  return {
    authorize: (req, now) => ledgerPaymentGateway.authorize(writer, req, now),
    recordAuthorization: (auth, now) => recordAuthorization(writer, { ...auth, id: newCommerceId('auth') }, now),
    openAuthorizationsOfNode: (orderId, generation, nodeId) => openAuthorizationsOfNode(reader, orderId, generation, nodeId),
    latestOpenAuthorization: (orderId, generation) => latestOpenAuthorization(reader, orderId, generation),
    // Not a checked write: the capture step planned the amount from the open authorization it just read, so only a
    // concurrent change to that authorization is refused here, and that fails the command (retried), not the step.
    capture: (req, now) => ledgerPaymentGateway.capture(writer, req, now),
    recordCapture: (capture, now) => recordCapture(writer, { ...capture, chargeId: newCommerceId('ch') }, now),
    void: (authorizationId, now) => ledgerPaymentGateway.void(writer, authorizationId, now),
    recordVoid: (authorizationId, now) => recordVoid(writer, authorizationId, now),
    charge: (req, now) => ledgerPaymentGateway.charge(writer, req, now),
    recordCharge: async (charge, now) => {
      const chargeId = newCommerceId('ch');
      await recordCharge(writer, { ...charge, id: chargeId }, now);
      return { chargeId };
    },
    refund: (req, now) => ledgerPaymentGateway.refund(writer, req, now),
    recordRefund: async (refund, now) => {
      const refundId = newCommerceId('re');
      await recordRefund(writer, { ...refund, id: refundId }, now);
      return { refundId };
    },
    refundableChargesOfNode: (orderId, generation, nodeId) => refundableChargesOfNode(reader, orderId, generation, nodeId),
    refundableChargesOfOrder: (orderId) => refundableChargesOfOrder(reader, orderId),
    refundedMinor: (orderId) => succeededRefundsMinor(reader, orderId),
  };
}

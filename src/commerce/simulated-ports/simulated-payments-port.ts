// Port `payments` in a simulation: authorizations, captures, voids, charges and refunds recorded in memory as the in-database ledger gateway records them.
import { newCommerceId } from '../../domain/commerce-ids.js';
import { RetryableError, TerminalError } from '../../domain/errors.js';
import type { AuthorizationRecord } from '../payment-gateway.js';
import type { PaymentsPort } from '../ports/payments-port.js';
import type { SimAuthorization, SimCharge, SimulatedLedger } from './simulated-ledger.js';

/** Gateway references look like the ledger gateway's. */
const ref = () => newCommerceId('ledger');

function record(a: SimAuthorization): AuthorizationRecord {
  return { id: a.id, orderId: a.orderId, amountMinor: a.amountMinor, currency: a.currency, status: a.status, capturedMinor: a.capturedMinor, releasedMinor: a.releasedMinor };
}

/** Latest first (the real reads order by created_at DESC, id DESC; here the order rows were made in). */
const newestFirst = <T>(rows: readonly T[]): T[] => [...rows].reverse();

export function simulatedPaymentsPort(ledger: SimulatedLedger): PaymentsPort {
  const authorize = (a: { orderId: string; generation: number; nodeId: string; amountMinor: number; currency: string; gatewayRef: string }) =>
    record(
      ledger.insert(ledger.authorizations, {
        id: newCommerceId('auth'),
        orderId: a.orderId,
        generation: a.generation,
        nodeId: a.nodeId,
        amountMinor: a.amountMinor,
        currency: a.currency,
        gatewayRef: a.gatewayRef,
        status: 'authorized',
        capturedMinor: 0,
        releasedMinor: 0,
      }),
    );

  /** The payment-records rule: a capturable authorization of at least the amount is captured and the charge booked; otherwise a TerminalError says why. */
  const capture = (c: { authorizationId: string; amountMinor: number; generation: number; nodeId: string; gatewayRef: string }) => {
    const auth = ledger.authorizations.find((a) => a.id === c.authorizationId);
    if (!auth) throw new TerminalError(`Authorization ${c.authorizationId} not found`);
    if (auth.status !== 'authorized') throw new TerminalError(`Authorization ${auth.id} is ${auth.status}, not capturable`);
    if (!Number.isSafeInteger(c.amountMinor) || c.amountMinor < 0 || auth.amountMinor < c.amountMinor)
      throw new TerminalError(`Cannot capture ${c.amountMinor} of an authorization of ${auth.amountMinor}`);
    const releasedMinor = auth.amountMinor - c.amountMinor;
    ledger.patch(auth, { status: 'captured', capturedMinor: c.amountMinor, releasedMinor });
    const charge: SimCharge = {
      id: newCommerceId('ch'),
      orderId: auth.orderId,
      generation: c.generation,
      nodeId: c.nodeId,
      kind: 'capture',
      authorizationId: auth.id,
      amountMinor: c.amountMinor,
      currency: auth.currency,
      method: 'card',
      gatewayRef: c.gatewayRef,
    };
    ledger.insert(ledger.charges, charge);
    return { chargeId: charge.id, capturedMinor: c.amountMinor, releasedMinor };
  };

  const voidAuthorization = (authorizationId: string) => {
    const auth = ledger.authorizations.find((a) => a.id === authorizationId && a.status === 'authorized');
    if (!auth) return false;
    ledger.patch(auth, { status: 'voided', releasedMinor: auth.amountMinor });
    return true;
  };

  const charge = (c: { orderId: string; generation: number; nodeId: string; amountMinor: number; currency: string; method: string; gatewayRef: string }) =>
    ledger.insert(ledger.charges, {
      id: newCommerceId('ch'),
      orderId: c.orderId,
      generation: c.generation,
      nodeId: c.nodeId,
      kind: 'charge',
      authorizationId: null,
      amountMinor: c.amountMinor,
      currency: c.currency,
      method: c.method,
      gatewayRef: c.gatewayRef,
    }).id;

  const refund = (r: { orderId: string; nodeId: string; chargeId: string | null; amountMinor: number; currency: string; reason: string | null; gatewayRef: string | null }) =>
    ledger.insert(ledger.refunds, {
      id: newCommerceId('re'),
      orderId: r.orderId,
      nodeId: r.nodeId,
      chargeId: r.chargeId,
      amountMinor: r.amountMinor,
      currency: r.currency,
      status: 'succeeded',
      reason: r.reason,
      gatewayRef: r.gatewayRef,
    }).id;

  /** What is left to refund of a charge: its amount less its succeeded refunds. */
  const open = (c: SimCharge) => c.amountMinor - ledger.refunds.filter((r) => r.chargeId === c.id && r.status === 'succeeded').reduce((n, r) => n + r.amountMinor, 0);

  return {
    authorize: (req) => {
      // card_declined: the issuer refuses; retrying the same card changes nothing (as the ledger gateway).
      if (req.simulate.has('card_declined')) return Promise.reject(new TerminalError('Card declined (simulated card_declined)', 'card_declined'));
      return Promise.resolve(authorize({ ...req, gatewayRef: ref() }));
    },
    recordAuthorization: (auth) => Promise.resolve(authorize(auth)),
    openAuthorizationsOfNode: (orderId, generation, nodeId) =>
      Promise.resolve(
        newestFirst(ledger.authorizations)
          .filter((a) => a.orderId === orderId && a.generation === generation && a.nodeId === nodeId && a.status === 'authorized')
          .map((a) => ({ id: a.id, gatewayRef: a.gatewayRef })),
      ),
    latestOpenAuthorization: (orderId, generation) => {
      const a = newestFirst(ledger.authorizations).find((x) => x.orderId === orderId && x.generation === generation && x.status === 'authorized');
      return Promise.resolve(a ? { id: a.id, gatewayRef: a.gatewayRef, amountMinor: a.amountMinor } : null);
    },
    capture: async (req) => {
      if (req.simulate.has('capture_error')) throw new RetryableError('The payment gateway failed to capture (simulated capture_error)', undefined, 'capture_error');
      return capture({ ...req, gatewayRef: ref() });
    },
    recordCapture: async (c) => capture(c),
    void: (authorizationId) => Promise.resolve(voidAuthorization(authorizationId)),
    recordVoid: (authorizationId) => Promise.resolve(voidAuthorization(authorizationId)),
    charge: async (req) => {
      if (req.simulate.has('card_declined')) throw new TerminalError('Card declined (simulated card_declined)', 'card_declined');
      return { chargeId: charge({ ...req, gatewayRef: ref() }) };
    },
    recordCharge: (c) => Promise.resolve({ chargeId: charge(c) }),
    refund: async (req) => {
      if (req.simulate.has('refund_error')) throw new RetryableError('The payment gateway failed to refund (simulated refund_error)', undefined, 'refund_error');
      return { refundId: refund({ ...req, gatewayRef: ref() }) };
    },
    recordRefund: (r) => Promise.resolve({ refundId: refund(r) }),
    refundableChargesOfNode: (orderId, generation, nodeId) =>
      Promise.resolve(
        ledger.charges
          .filter((c) => c.orderId === orderId && c.generation === generation && c.nodeId === nodeId)
          .map((c) => ({ id: c.id, currency: c.currency, gatewayRef: c.gatewayRef, openMinor: open(c) }))
          .filter((c) => c.openMinor > 0),
      ),
    refundableChargesOfOrder: (orderId) =>
      Promise.resolve(
        newestFirst(ledger.charges)
          .filter((c) => c.orderId === orderId)
          .map((c) => ({ id: c.id, gatewayRef: c.gatewayRef, openMinor: open(c) }))
          .filter((c) => c.openMinor > 0),
      ),
    refundedMinor: (orderId) => Promise.resolve(ledger.refunds.filter((r) => r.orderId === orderId && r.status === 'succeeded').reduce((n, r) => n + r.amountMinor, 0)),
  };
}

// Port `payments`: money taken from and given back to the buyer (authorize, capture, void, charge, refund) and the order's payment rows as steps read them.
import type { AuthorizationRecord, AuthorizeRequest, CaptureRequest, ChargeRequest, RefundRequest } from '../payment-gateway.js';
import type { OpenAuthorization, RefundableCharge } from '../payments-repo.js';

/**
 * The gateway calls (`authorize`, `capture`, `void`, `charge`, `refund`) go through the
 * in-database ledger gateway, which records the rows itself and honours `meta.simulate`. When the
 * workspace names an HTTP payment gateway, the step calls it out of the transaction and the
 * `record*` methods write the same rows from its answer (the gateway's id as `gatewayRef`).
 * Every write is in the slice's transaction; `now` is the step's clock.
 */
export interface PaymentsPort {
  /** Holds `amountMinor` on the buyer's card: writes an `authorized` payment_authorizations row. `card_declined` throws a TerminalError and writes nothing. */
  authorize(req: AuthorizeRequest, now: number): Promise<AuthorizationRecord>;
  /** Records an authorization the HTTP gateway granted: writes the same row as `authorize`. */
  recordAuthorization(auth: Omit<AuthorizeRequest, 'simulate'> & { gatewayRef: string }, now: number): Promise<AuthorizationRecord>;
  /** The node's open (not captured or voided) authorizations in the run `generation`, newest first. */
  openAuthorizationsOfNode(orderId: string, generation: number, nodeId: string): Promise<OpenAuthorization[]>;
  /** The run's latest open authorization with its amount (what a capture takes), or null. */
  latestOpenAuthorization(orderId: string, generation: number): Promise<(OpenAuthorization & { amountMinor: number }) | null>;
  /**
   * Takes `amountMinor` of the authorization and releases the rest: marks it captured and writes a
   * `capture` payment_charges row. `capture_error` throws a RetryableError and writes nothing.
   */
  capture(req: CaptureRequest, now: number): Promise<{ chargeId: string; capturedMinor: number; releasedMinor: number }>;
  /** Records a capture the HTTP gateway made: writes what `capture` writes; a TerminalError when the authorization is not capturable. */
  recordCapture(capture: Omit<CaptureRequest, 'simulate'> & { gatewayRef: string }, now: number): Promise<{ chargeId: string; capturedMinor: number; releasedMinor: number }>;
  /** Drops an authorization that was not captured (marks it voided, all released); false when there was nothing to void. */
  void(authorizationId: string, now: number): Promise<boolean>;
  /** Marks an authorization voided before the HTTP gateway is asked to void it (after the commit); false when there was nothing to void. */
  recordVoid(authorizationId: string, now: number): Promise<boolean>;
  /** Takes money at once (till, stored card): writes a `charge` payment_charges row. `card_declined` throws a TerminalError and writes nothing. */
  charge(req: ChargeRequest, now: number): Promise<{ chargeId: string }>;
  /** Records a charge the HTTP gateway made: writes the same row as `charge`. */
  recordCharge(charge: Omit<ChargeRequest, 'simulate'> & { gatewayRef: string }, now: number): Promise<{ chargeId: string }>;
  /** Gives money back on a charge: writes a succeeded refunds row. `refund_error` throws a RetryableError and writes nothing. */
  refund(req: RefundRequest, now: number): Promise<{ refundId: string }>;
  /**
   * Records a refund the HTTP gateway made (`gatewayRef` its id), or one an undo records before
   * asking the gateway after the commit (`gatewayRef` null): writes the same row as `refund`.
   */
  recordRefund(refund: Omit<RefundRequest, 'simulate'> & { gatewayRef: string | null }, now: number): Promise<{ refundId: string }>;
  /** The charges the node made in the run `generation` that still have money to refund, with their currency. */
  refundableChargesOfNode(orderId: string, generation: number, nodeId: string): Promise<(RefundableCharge & { currency: string })[]>;
  /** Every charge of the order that still has money to refund, latest first. */
  refundableChargesOfOrder(orderId: string): Promise<RefundableCharge[]>;
  /** The order's succeeded refunds so far, in minor units (what the payout formula deducts). */
  refundedMinor(orderId: string): Promise<number>;
}

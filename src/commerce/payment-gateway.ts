// The payment gateway port: authorize, capture (releasing the rest), void, charge and refund.
//
// Every call gets the order's transaction so the in-database implementation records in the
// same commit as the step; a remote gateway would ignore it and keep its own idempotency keys.
import type { Queryable } from '../db/db.js';
import type { SimulateSwitch } from '../domain/simulate.js';

export interface AuthorizeRequest {
  orderId: string;
  generation: number;
  nodeId: string;
  amountMinor: number;
  currency: string;
  simulate: ReadonlySet<SimulateSwitch>;
}

export interface AuthorizationRecord {
  id: string;
  orderId: string;
  amountMinor: number;
  currency: string;
  status: 'authorized' | 'captured' | 'voided';
  capturedMinor: number;
  releasedMinor: number;
}

export interface CaptureRequest {
  authorizationId: string;
  generation: number;
  nodeId: string;
  /** What to take; the rest of the authorization is released. */
  amountMinor: number;
  simulate: ReadonlySet<SimulateSwitch>;
}

export interface ChargeRequest {
  orderId: string;
  generation: number;
  nodeId: string;
  amountMinor: number;
  currency: string;
  /** e.g. `card`, `card_present`, `stored_card`. */
  method: string;
  simulate: ReadonlySet<SimulateSwitch>;
}

export interface RefundRequest {
  orderId: string;
  nodeId: string;
  chargeId: string | null;
  amountMinor: number;
  currency: string;
  reason: string | null;
  simulate: ReadonlySet<SimulateSwitch>;
}

export interface PaymentGateway {
  /** Holds the amount on the card; a declined card throws a TerminalError. */
  authorize(q: Queryable, req: AuthorizeRequest, now: number): Promise<AuthorizationRecord>;
  /** Takes `amountMinor` (at most the authorization) and releases the remainder. */
  capture(q: Queryable, req: CaptureRequest, now: number): Promise<{ chargeId: string; capturedMinor: number; releasedMinor: number }>;
  /** Drops an authorization that was not captured; false when there was nothing to void. */
  void(q: Queryable, authorizationId: string, now: number): Promise<boolean>;
  /** Takes money at once without a prior authorization (till, stored card). */
  charge(q: Queryable, req: ChargeRequest, now: number): Promise<{ chargeId: string }>;
  refund(q: Queryable, req: RefundRequest, now: number): Promise<{ refundId: string }>;
}

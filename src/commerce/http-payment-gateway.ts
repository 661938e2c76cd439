// The payment gateway port over HTTP (docs/integrations.md): builds each operation's request and reads its answer; pure, no I/O.
//
// The steps return these requests as `{ call }` (external steps: made outside the order's
// transaction and lock, with a stable Idempotency-Key) and record the same rows the ledger
// records once the answer is read (payment-records.ts), the gateway's id in `gateway_ref`.
import type { ExternalAnswer, ExternalRequest } from '../engine/node-type.js';
import { TerminalError } from '../domain/errors.js';
import { adapterPost, remoteId, segment, successBody, type AnswerMeaning, type StoredHttpAdapter } from './http-adapter.js';

const AUTHORIZE: AnswerMeaning = {
  refused: 'Card declined by the payment gateway',
  refusedCode: 'card_declined',
  failed: 'The payment gateway failed to authorize',
  failedCode: 'authorize_error',
};
const CAPTURE: AnswerMeaning = {
  refused: 'The payment gateway refused the capture',
  refusedCode: 'capture_refused',
  failed: 'The payment gateway failed to capture',
  failedCode: 'capture_error',
};
const CHARGE: AnswerMeaning = {
  refused: 'Card declined by the payment gateway',
  refusedCode: 'card_declined',
  failed: 'The payment gateway failed to charge',
  failedCode: 'charge_error',
};
const REFUND: AnswerMeaning = {
  refused: 'The payment gateway refused the refund',
  refusedCode: 'refund_refused',
  failed: 'The payment gateway failed to refund',
  failedCode: 'refund_error',
};

/** `POST {url}/authorizations`: hold `amountMinor` (minor units of `currency`) on the buyer's card. */
export function authorizationRequest(adapter: StoredHttpAdapter, q: { orderId: string; amountMinor: number; currency: string; reference: string }): ExternalRequest {
  return adapterPost(adapter, '/authorizations', { orderId: q.orderId, amount: q.amountMinor, currency: q.currency, reference: q.reference });
}

/** The gateway's authorization id; a decline (4xx) is a TerminalError `card_declined`. */
export function authorizationAnswer(answer: ExternalAnswer): { gatewayRef: string } {
  return { gatewayRef: remoteId(successBody(answer, AUTHORIZE), 'id', AUTHORIZE) };
}

/** `POST {url}/authorizations/{id}/capture`: take `amountMinor` of the authorization; the gateway releases the rest. */
export function captureRequest(adapter: StoredHttpAdapter, q: { authorizationRef: string; amountMinor: number; currency: string }): ExternalRequest {
  return adapterPost(adapter, `/authorizations/${segment(q.authorizationRef)}/capture`, { amount: q.amountMinor, currency: q.currency });
}

/** The gateway's id of the charge the capture made. */
export function captureAnswer(answer: ExternalAnswer): { gatewayRef: string } {
  return { gatewayRef: remoteId(successBody(answer, CAPTURE), 'id', CAPTURE) };
}

/** `POST {url}/authorizations/{id}/void`: drop an authorization that was not captured (an undo: its answer goes to the timeline). */
export function voidRequest(adapter: StoredHttpAdapter, authorizationRef: string): ExternalRequest {
  return adapterPost(adapter, `/authorizations/${segment(authorizationRef)}/void`, {});
}

/** `POST {url}/charges`: take `amountMinor` at once, without an authorization. */
export function chargeRequest(
  adapter: StoredHttpAdapter,
  q: { orderId: string; amountMinor: number; currency: string; method: string; reference: string },
): ExternalRequest {
  return adapterPost(adapter, '/charges', { orderId: q.orderId, amount: q.amountMinor, currency: q.currency, method: q.method, reference: q.reference });
}

/** The gateway's charge id; a decline (4xx) is a TerminalError `card_declined`. */
export function chargeAnswer(answer: ExternalAnswer): { gatewayRef: string } {
  return { gatewayRef: remoteId(successBody(answer, CHARGE), 'id', CHARGE) };
}

/** One part of a refund: money back on one of the gateway's charges. */
export interface RefundPart {
  chargeRef: string;
  amountMinor: number;
}

/**
 * `POST {url}/refunds`: every part of one refund in one request (a step makes one call per run,
 * and a refund may span several charges), answered with one id per part in the same order.
 */
export function refundRequest(adapter: StoredHttpAdapter, q: { orderId: string; currency: string; reason: string | null; parts: readonly RefundPart[] }): ExternalRequest {
  return adapterPost(adapter, '/refunds', {
    orderId: q.orderId,
    currency: q.currency,
    reason: q.reason,
    refunds: q.parts.map((p) => ({ chargeId: p.chargeRef, amount: p.amountMinor })),
  });
}

/** The gateway's refund ids, one per part asked for, in order. */
export function refundAnswer(answer: ExternalAnswer, parts: number): { gatewayRefs: string[] } {
  const body = successBody(answer, REFUND);
  const list = body.refunds;
  if (!Array.isArray(list) || list.length !== parts)
    throw new TerminalError(`${REFUND.failed}: the answer's \`refunds\` is not a list of ${parts}`, REFUND.failedCode);
  return { gatewayRefs: list.map((r, i) => remoteId(typeof r === 'object' && r !== null ? (r as Record<string, unknown>) : {}, 'id', REFUND, `refunds[${i}].id`)) };
}

// HTTP answers of the channel outcomes: an inbound start 201 (200 when replayed), a signed event 200 or 409.
import type { InboundStartOutcome } from '../../channels/inbound/inbound-start.js';
import type { SignedEventAnswer } from '../../channels/signed/signed-event-delivery.js';
import type { RouteResponse } from '../route.js';

/** 201 `{ orderId, flowId }`, or 200 with `replayed: true` (spec "Signed orders route"). */
export function inboundStartResponse(outcome: InboundStartOutcome): RouteResponse {
  return outcome.replayed
    ? { status: 200, body: { orderId: outcome.orderId, flowId: outcome.flowId, replayed: true } }
    : { status: 201, body: { orderId: outcome.orderId, flowId: outcome.flowId } };
}

/** 200 when delivered (or already delivered by a copy), 409 `{ delivered: false }` when nothing waits for it. */
export function signedEventResponse(answer: SignedEventAnswer): RouteResponse {
  return { status: answer.delivered ? 200 : 409, body: answer };
}

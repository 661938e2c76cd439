// The inbound start shared by the signed orders route and the adapters: routing, channel idempotency, start.
import { fingerprint, type IdempotencyClaim } from '../../orders/idempotency.js';
import { startOrder, type OrderServiceDeps } from '../../orders/start-order.js';
import { inboundToStart } from '../../domain/inbound-order.js';
import type { InboundOrderBody } from '../../domain/order-input-schema.js';
import { readChannelSettings } from '../channel-settings.js';
import { routeOrder } from './order-routing.js';

/** Idempotency scope of every inbound start (signed route, storefront platform, EDI): one key space. */
export const INBOUND_ORDERS_SCOPE = 'inbound.orders';

/** Spec: the idempotency key of an inbound order is `order:<channel>:<externalId>`. */
export function inboundOrderKey(channel: string, externalId: string): string {
  return `order:${channel}:${externalId}`;
}

export interface InboundStartRequest {
  /** The validated inbound body. */
  body: InboundOrderBody;
  /** `meta.via`, set by the server: `webhook` for signed and platform orders, `edi` for EDI. */
  via: string;
  /** Kept with the order as who started it (`integration:<name>`, `platform:<name>`, the EDI operator). */
  startedBy: string;
  /** What the key's fingerprint is taken of: the body as sent (the adapters: their mapped body). */
  sent: unknown;
}

export interface InboundStartOutcome {
  orderId: string;
  flowId: string;
  /** True when `order:<channel>:<externalId>` named an order started earlier with the same body. */
  replayed: boolean;
}

/**
 * Routes the order to a flow, claims `order:<channel>:<externalId>` bound to the fingerprint of
 * what was sent, and starts it. A repeat with the same body replays the first order (even if
 * its flow was unpublished since: the flow is checked only for a new order); another body is a
 * 422; a routed flow without a published version is a 409 and nothing is recorded.
 */
export async function startInboundOrder(deps: OrderServiceDeps, req: InboundStartRequest): Promise<InboundStartOutcome> {
  const { body } = req;
  const settings = await readChannelSettings(deps.db);
  const { flowId } = routeOrder({ flowId: body.flowId, model: body.model, channel: body.channel }, settings.orderRoutes);
  const start = inboundToStart(body, req.via);
  const idempotency: IdempotencyClaim = {
    scope: INBOUND_ORDERS_SCOPE,
    key: inboundOrderKey(body.channel, body.externalId),
    fingerprint: fingerprint(req.sent),
  };
  const outcome = await startOrder(deps, { flowId, input: start.input, vars: start.vars }, { startedBy: req.startedBy, idempotency });
  if (!outcome.replayed) return { orderId: outcome.orderId, flowId, replayed: false };
  // A replay answers with the flow the first order runs on (routing may have changed since).
  const { rows } = await deps.db.query<{ flow_id: string }>('SELECT flow_id FROM orders WHERE id = $1', [outcome.orderId]);
  return { orderId: outcome.orderId, flowId: rows[0]?.flow_id ?? flowId, replayed: true };
}

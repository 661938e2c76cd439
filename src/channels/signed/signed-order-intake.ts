// POST /api/v1/webhooks/orders after verification: scope checks, then the inbound start (spec "Signed inbound orders route").
import type { OrderServiceDeps } from '../../orders/start-order.js';
import { forbidden, ValidationError } from '../../domain/errors.js';
import { inboundOrderBodySchema } from '../../domain/order-input-schema.js';
import { zodIssues } from '../../lib/zod-issues.js';
import { allowsFlow, seesChannel } from '../integrations/integration.js';
import { startInboundOrder, type InboundStartOutcome } from '../inbound/inbound-start.js';
import type { VerifiedRequest } from './verify-signed-request.js';

/**
 * 403 unless the integration may start orders; 400 with issues for an invalid body; 403 when
 * a channel-bound integration sends another channel or the body names a flow outside its
 * `flows` (a body without flowId is routed regardless of `flows`); then the inbound start.
 */
export async function receiveSignedOrder(deps: OrderServiceDeps, verified: VerifiedRequest, payload: unknown): Promise<InboundStartOutcome> {
  const { integration } = verified;
  if (!integration.startOrders) throw forbidden('This integration may not start orders');
  const parsed = inboundOrderBodySchema.safeParse(payload);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error), 'Invalid body');
  const body = parsed.data;
  if (!seesChannel(integration, body.channel))
    throw forbidden(`This integration is bound to the channel ${integration.channel} and cannot start ${body.channel} orders`);
  if (body.flowId !== undefined && !allowsFlow(integration, body.flowId)) throw forbidden(`This integration may not choose the flow ${body.flowId}`);
  return startInboundOrder(deps, { body, via: 'webhook', startedBy: `integration:${integration.name}`, sent: body });
}

// REST: the signed inbound routes /api/v1/webhooks/events and /api/v1/webhooks/orders (spec "Signed events route", "Signed inbound orders route").
import type { Context } from 'koa';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { OrderServiceDeps } from '../../orders/start-order.js';
import { DomainError, ValidationError } from '../../domain/errors.js';
import { inboundOrderBodySchema } from '../../domain/order-input-schema.js';
import { zodIssues } from '../../lib/zod-issues.js';
import { parseJsonObject } from '../../channels/json-body.js';
import { SIGNATURE_HEADER } from '../../channels/signed/signature-header.js';
import { verifySignedRequest } from '../../channels/signed/verify-signed-request.js';
import { deliverSignedEvent } from '../../channels/signed/signed-event-delivery.js';
import { signedEventBodySchema } from '../../channels/signed/signed-event-schema.js';
import { receiveSignedOrder } from '../../channels/signed/signed-order-intake.js';
import { inboundStartResponse, signedEventResponse } from './inbound-answers.js';

export interface SignedRouteDeps extends OrderServiceDeps {
  /** Opens integration secrets. */
  sealKey: Buffer;
}

const signatureHeader = {
  name: SIGNATURE_HEADER,
  required: true,
  description:
    't=<unix seconds>,k=<integration id>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the integration secret>; t within 5 minutes of server time',
};

/** A signed body is JSON; a declared other media type is a 415 (no Content-Type is accepted). */
function requireJson(ctx: Context): void {
  const type = ctx.get('content-type');
  if (type && !/json/i.test(type)) throw new DomainError('unsupported_media_type', 'Body must be application/json', 'unsupported_media');
}

const header = (ctx: Context, name: string): string | undefined => ctx.get(name) || undefined;

export function signedWebhookRoutes(deps: SignedRouteDeps): RouteDef[] {
  const verify = (ctx: Context, raw: Buffer) => verifySignedRequest(deps.db, deps.sealKey, header(ctx, SIGNATURE_HEADER), raw, deps.clock.now());
  return [
    defineRoute<Buffer>({
      method: 'post',
      path: '/api/v1/webhooks/events',
      operationId: 'deliverSignedEvent',
      summary: 'Deliver a business event to an order, signed by an integration',
      tag: 'signed',
      access: 'self',
      rawBody: { contentTypes: ['application/json'], schema: signedEventBodySchema },
      headers: [signatureHeader],
      responses: {
        200: {
          description: '{ delivered: true, nodeId }; a copy of a request already delivered: { delivered: true, duplicate: true }',
          schema: z.object({ delivered: z.literal(true), nodeId: z.string().optional(), duplicate: z.literal(true).optional() }),
        },
        400: { description: 'Invalid body (event 1 to 100 characters, payload up to 32 KiB of JSON)' },
        401: { description: 'Missing or malformed signature, stale or future timestamp, missing k=, unknown or revoked integration, no matching HMAC' },
        403: { description: 'The integration may not deliver this event' },
        404: { description: 'Unknown order, or an order on a channel the integration is not bound to' },
        409: { description: '{ delivered: false }: no node waits for the event; not recorded, retry later', schema: z.object({ delivered: z.literal(false) }) },
      },
      handler: async ({ body: raw, ctx }) => {
        requireJson(ctx);
        const verified = await verify(ctx, raw);
        const parsed = signedEventBodySchema.safeParse(parseJsonObject(raw.toString('utf8')));
        if (!parsed.success) throw new ValidationError(zodIssues(parsed.error), 'Invalid body');
        return signedEventResponse(await deliverSignedEvent(deps, verified, parsed.data));
      },
    }),
    defineRoute<Buffer>({
      method: 'post',
      path: '/api/v1/webhooks/orders',
      operationId: 'receiveSignedOrder',
      summary: 'Start an order from an outside system, signed by an integration (routed, idempotent on channel + externalId)',
      tag: 'signed',
      access: 'self',
      rawBody: { contentTypes: ['application/json'], schema: inboundOrderBodySchema },
      headers: [signatureHeader],
      responses: {
        201: { description: 'Started', schema: z.object({ orderId: z.string(), flowId: z.string() }) },
        200: {
          description: 'The same channel and externalId sent again with the same body: the first order',
          schema: z.object({ orderId: z.string(), flowId: z.string(), replayed: z.literal(true) }),
        },
        400: { description: 'Invalid body (channel, externalId, model required; a line or documentText; limits) or unsupported currency' },
        401: { description: 'Signature problems, as on the events route' },
        403: { description: 'The integration may not start orders, is bound to another channel, or may not choose that flow' },
        409: { description: 'The routed flow has no published version; nothing starts' },
        422: { description: 'The same channel and externalId with a different body; nothing starts' },
      },
      handler: async ({ body: raw, ctx }) => {
        requireJson(ctx);
        const verified = await verify(ctx, raw);
        return inboundStartResponse(await receiveSignedOrder(deps, verified, parseJsonObject(raw.toString('utf8'))));
      },
    }),
  ];
}

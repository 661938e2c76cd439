// REST: channel adapters — the storefront-platform order webhook and EDI X12 850 upload (spec "Storefront-platform adapter", "EDI 850 adapter").
import type { Context } from 'koa';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import { DomainError } from '../../domain/errors.js';
import {
  PLATFORM_HMAC_HEADER,
  PLATFORM_SEGMENT,
  PLATFORM_TOPIC_HEADER,
  receivePlatformWebhook,
} from '../../channels/storefront/platform-webhook.js';
import { receiveEdi850, type Edi850Deps, type Edi850Outcome, type Edi850Result } from '../../channels/x12/edi-850-intake.js';
import { HTTP_STATUS } from '../../transport/http-errors.js';
import { inboundStartResponse } from './inbound-answers.js';

/** Spec "Limits": an EDI body may be 5 MiB. */
export const EDI_BODY_LIMIT = 5 * 1024 * 1024;
export const EDI_CONTENT_TYPES = ['application/edi-x12', 'text/plain'];

const platformHeaders = [
  { name: PLATFORM_HMAC_HEADER, required: true, description: 'Base64 HMAC-SHA256 of the raw body keyed by the platform app client secret' },
  { name: PLATFORM_TOPIC_HEADER, required: true, description: 'orders/create starts an order; any other topic is acknowledged and ignored' },
];

const platformResponses = {
  201: { description: 'Started', schema: z.object({ orderId: z.string(), flowId: z.string() }) },
  200: {
    description: 'A replay of an order already started ({ orderId, flowId, replayed: true }), or { ignored: true, topic } for another topic',
    schema: z.union([
      z.object({ orderId: z.string(), flowId: z.string(), replayed: z.literal(true) }),
      z.object({ ignored: z.literal(true), topic: z.string() }),
    ]),
  },
  400: { description: 'Unmappable payload (e.g. "Line items without a SKU…"), invalid order or unsupported currency; nothing starts' },
  401: { description: 'Missing or wrong platform HMAC' },
  409: { description: 'The routed flow has no published version (retry-safe once it is published)' },
  422: { description: 'The same order id with different contents' },
  503: { description: 'The adapter is not enabled: the workspace has no platform client secret' },
};

const ediResultSchema = z.object({
  control: z.string().describe('ST02'),
  poNumber: z.string().optional().describe('BEG03'),
  status: z.number().int().describe('What the inbound start alone would answer: 201, 200 (replay), 400, 409, 422'),
  orderId: z.string().optional(),
  flowId: z.string().optional(),
  replayed: z.literal(true).optional(),
  error: z.string().optional(),
});

const header = (ctx: Context, name: string): string | undefined => ctx.get(name) || undefined;

/** The media type without parameters, lower case ('' when absent). */
function mediaType(ctx: Context): string {
  return ctx.get('content-type').split(';')[0].trim().toLowerCase();
}

/** The status each transaction's start alone would answer (spec "EDI 850 adapter": 201, 200 replay, 4xx, 500). */
function statusOf(outcome: Edi850Outcome): number {
  if (outcome === 'started') return 201;
  if (outcome === 'replayed') return 200;
  if (outcome === 'internal') return 500;
  return HTTP_STATUS[outcome];
}

/** A transaction result as the spec shows it: `status` in the outcome's place. */
function withStatus({ outcome, ...rest }: Edi850Result) {
  const { control, poNumber, ...tail } = rest;
  return { control, ...(poNumber !== undefined ? { poNumber } : {}), status: statusOf(outcome), ...tail };
}

export function channelAdapterRoutes(deps: Edi850Deps): RouteDef[] {
  const platformHandler = async ({ body: raw, ctx, segment }: { body: Buffer; ctx: Context; segment: string }) => {
    const type = mediaType(ctx);
    if (type && !type.includes('json')) throw new DomainError('unsupported_media_type', 'Body must be application/json', 'unsupported_media');
    const outcome = await receivePlatformWebhook(deps, { segment, header: (name) => header(ctx, name), rawBody: raw });
    return 'ignored' in outcome ? { status: 200, body: outcome } : inboundStartResponse(outcome);
  };
  return [
    defineRoute<Buffer>({
      method: 'post',
      path: `/api/v1/channels/${PLATFORM_SEGMENT}/orders`,
      operationId: 'receiveStorefrontOrder',
      summary: 'Storefront-platform order-created webhook (platform HMAC, no token)',
      tag: 'channels',
      access: 'self',
      rawBody: { contentTypes: ['application/json'] },
      headers: platformHeaders,
      responses: platformResponses,
      handler: ({ body, ctx }) => platformHandler({ body, ctx, segment: PLATFORM_SEGMENT }),
    }),
    defineRoute<Buffer, undefined, { platformName: string }>({
      method: 'post',
      path: '/api/v1/channels/:platformName/orders',
      operationId: 'receiveStorefrontOrderByPlatformName',
      summary: "The same webhook under the platform's own name (workspace platform.name), with its own header names (X-<Name>-Hmac-Sha256, X-<Name>-Topic)",
      tag: 'channels',
      access: 'self',
      params: z.object({ platformName: z.string().min(1).max(40) }),
      rawBody: { contentTypes: ['application/json'] },
      headers: platformHeaders,
      responses: { ...platformResponses, 404: { description: 'Not the configured platform name' } },
      handler: ({ body, ctx, params }) => platformHandler({ body, ctx, segment: params.platformName }),
    }),
    defineRoute<Buffer>({
      method: 'post',
      path: '/api/v1/channels/edi/850',
      operationId: 'receiveEdi850',
      summary: 'Upload one X12 interchange; each 850 purchase order starts a b2b order (one result per transaction set)',
      tag: 'channels',
      access: 'operator',
      rawBody: { contentTypes: EDI_CONTENT_TYPES },
      bodyLimit: EDI_BODY_LIMIT,
      responses: {
        200: { description: 'One result per transaction set, in order', schema: z.object({ sender: z.string(), results: z.array(ediResultSchema) }) },
        400: { description: 'Not one readable interchange (no ISA, ISA not 106 characters, a second ISA, no transaction set)' },
        403: { description: 'The sender (ISA06) is not in the workspace EDI partner list' },
        413: { description: 'Body over 5 MiB' },
        415: { description: 'Content-Type is not application/edi-x12 or text/plain' },
      },
      handler: async ({ body: raw, ctx, principal }) => {
        if (!EDI_CONTENT_TYPES.includes(mediaType(ctx)))
          throw new DomainError('unsupported_media_type', `Body must be ${EDI_CONTENT_TYPES.join(' or ')}`, 'unsupported_media');
        const { sender, results } = await receiveEdi850(deps, raw, principal!.actor);
        return { body: { sender, results: results.map(withStatus) } };
      },
    }),
  ];
}

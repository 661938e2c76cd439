// REST: /api/v1/webhook-subscriptions (operator) — subscribe (secret once), list, delete, latest deliveries.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../engine/clock.js';
import { notFound } from '../../domain/errors.js';
import { subscriptionEventsSchema } from '../../webhooks/webhook-events.js';
import { subscriptionUrlSchema } from '../../webhooks/subscription-url.js';
import { createSubscription, deleteSubscription, findSubscription, listSubscriptions } from '../../webhooks/subscription-store.js';
import { listDeliveries } from '../../webhooks/delivery-store.js';

export interface WebhookRouteDeps {
  db: Db;
  clock: Clock;
  sealKey: Buffer;
}

const subscriptionSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.number(),
});

const deliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  orderId: z.string(),
  payload: z.unknown().describe('The body sent: { id, event, occurredAt, orderId, data }'),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.number(),
  deliveredAt: z.number().nullable(),
});

const subscribeBody = z.strictObject({
  url: subscriptionUrlSchema,
  events: subscriptionEventsSchema.optional().describe('Outbound event names or ["*"] (default)'),
});

const idParams = z.strictObject({ id: z.string().min(1).max(100) });

export function webhookSubscriptionRoutes(deps: WebhookRouteDeps): RouteDef[] {
  const { db } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/webhook-subscriptions',
      summary: 'List webhook subscriptions (no secrets, at most 500)',
      tag: 'webhooks',
      access: 'operator',
      responses: { 200: { description: 'Newest first', schema: z.object({ subscriptions: z.array(subscriptionSchema) }) } },
      handler: async () => ({ body: { subscriptions: await listSubscriptions(db) } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhook-subscriptions',
      summary: 'Subscribe a URL to order events; the signing secret (whsec_…) is returned only here',
      tag: 'webhooks',
      access: 'operator',
      body: subscribeBody,
      responses: {
        201: { description: 'Subscribed', schema: z.object({ subscription: subscriptionSchema, secret: z.string() }) },
        400: { description: 'URL not https (or loopback http), or an unknown event name' },
      },
      handler: async ({ body, principal }) => ({
        status: 201,
        body: await createSubscription(db, deps.sealKey, { url: body.url, events: body.events ?? ['*'], createdBy: principal!.actor }, deps.clock.now()),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/webhook-subscriptions/:id',
      summary: 'Delete a subscription (its pending retries stop)',
      tag: 'webhooks',
      access: 'operator',
      params: idParams,
      responses: { 200: { description: 'Deleted', schema: z.object({ ok: z.literal(true) }) }, 404: { description: 'No such subscription' } },
      handler: async ({ params }) => {
        if (!(await deleteSubscription(db, params.id))) throw notFound('Subscription');
        return { body: { ok: true } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhook-subscriptions/:id/deliveries',
      summary: 'The latest 50 deliveries of a subscription, newest first',
      tag: 'webhooks',
      access: 'operator',
      params: idParams,
      responses: {
        200: { description: 'Deliveries', schema: z.object({ deliveries: z.array(deliverySchema) }) },
        404: { description: 'No such subscription' },
      },
      handler: async ({ params }) => {
        if (!(await findSubscription(db, params.id))) throw notFound('Subscription');
        return { body: { deliveries: await listDeliveries(db, params.id) } };
      },
    }),
  ];
}

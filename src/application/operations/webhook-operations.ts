// Outbound webhooks: subscribe a URL to order events (secret once), list, delete, its latest deliveries.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../domain/errors.js';
import { subscriptionEventsSchema } from '../../webhooks/webhook-events.js';
import { subscriptionUrlSchema } from '../../webhooks/subscription-url.js';
import { createSubscription, deleteSubscription, findSubscription, listSubscriptions } from '../../webhooks/subscription-store.js';
import { listDeliveries } from '../../webhooks/delivery-store.js';
import { okSchema } from '../../lib/ok-schema.js';

export interface WebhookOperationDeps {
  db: Db;
  clock: Clock;
  sealKey: Buffer;
}

const subscriptionSchema = z
  .object({ id: z.string(), url: z.string(), events: z.array(z.string()), createdBy: z.string(), createdAt: z.number() })
  .meta({ id: 'WebhookSubscription' });

const deliverySchema = z
  .object({
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
  })
  .meta({ id: 'WebhookDelivery' });

const subscriptionId = z.string().min(1).max(100).describe('The subscription id');

export function webhookOperations(deps: WebhookOperationDeps) {
  const { db } = deps;
  return [
    defineOperation({
      name: 'listWebhookSubscriptions',
      summary: 'List webhook subscriptions (no secrets)',
      description: 'Newest first, at most 500.',
      feature: 'webhooks',
      role: 'operator',
      effect: 'read',
      input: z.object({}),
      output: z.object({ subscriptions: z.array(subscriptionSchema) }),
      run: async () => ({ subscriptions: await listSubscriptions(db) }),
    }),
    defineOperation({
      name: 'createWebhookSubscription',
      summary: 'Subscribe a URL to order events',
      description: 'The signing secret (whsec_…) is answered only here. The URL must be https (plain http only to loopback with the testing switch); events are outbound event names or ["*"] (the default).',
      feature: 'webhooks',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({
        url: subscriptionUrlSchema,
        events: subscriptionEventsSchema.optional().describe('Outbound event names or ["*"] (default)'),
      }),
      output: z.object({ subscription: subscriptionSchema, secret: z.string() }),
      example: { url: 'https://hooks.example.com/orders', events: ['order.completed', 'order.failed'] },
      run: async (caller, input) =>
        createSubscription(db, deps.sealKey, { url: input.url, events: input.events ?? ['*'], createdBy: caller.actor }, deps.clock.now()),
    }),
    defineOperation({
      name: 'deleteWebhookSubscription',
      summary: 'Delete a webhook subscription',
      description: 'Its pending retries stop. 404 when there is no such subscription.',
      feature: 'webhooks',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: subscriptionId }),
      output: okSchema,
      example: { id: 'whs_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => {
        if (!(await deleteSubscription(db, input.id))) throw notFound('Subscription');
        return { ok: true as const };
      },
    }),
    defineOperation({
      name: 'listWebhookDeliveries',
      summary: 'The latest 50 deliveries of a subscription',
      description: 'Newest first, with status, attempts, the receiver’s status code and the last error.',
      feature: 'webhooks',
      role: 'operator',
      effect: 'read',
      input: z.object({ id: subscriptionId }),
      output: z.object({ deliveries: z.array(deliverySchema) }),
      example: { id: 'whs_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => {
        if (!(await findSubscription(db, input.id))) throw notFound('Subscription');
        return { deliveries: await listDeliveries(db, input.id) };
      },
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    webhooks: ReturnType<typeof webhookOperations>;
  }
}

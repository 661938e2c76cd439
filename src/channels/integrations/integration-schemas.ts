// zod schemas of the integrations API: the create body and the integration as shown (validation and OpenAPI).
import { z } from 'zod';
import { COMMAND_LIMITS } from '../../orders/command-schemas.js';
import { ORDER_LIMITS, orderChannelSchema } from '../../domain/order-input-schema.js';

/** Spec "Limits": an integration name is 1 to 100 characters. */
export const INTEGRATION_NAME_MAX = 100;
/** Our cap on the names listed in one scope. */
export const SCOPE_LIST_MAX = 200;

export const createIntegrationBodySchema = z.strictObject({
  name: z.string().min(1).max(INTEGRATION_NAME_MAX).refine((s) => s.trim() !== '', { message: 'must not be blank' }),
  events: z
    .array(z.string().min(1).max(COMMAND_LIMITS.event))
    .max(SCOPE_LIST_MAX)
    .optional()
    .describe('Event names it may deliver, or ["*"]; default none'),
  startOrders: z.boolean().optional().describe('May start orders on POST /api/v1/webhooks/orders; default false'),
  flows: z
    .array(z.string().min(1).max(ORDER_LIMITS.flowId))
    .max(SCOPE_LIST_MAX)
    .optional()
    .describe('Flow ids it may name, or ["*"]; default none'),
  channel: orderChannelSchema.nullable().optional().describe('Restrict to one channel; default null = any'),
});

export const integrationSchema = z.object({
  id: z.string().describe('Used as k= in signatures'),
  name: z.string(),
  events: z.array(z.string()),
  startOrders: z.boolean(),
  flows: z.array(z.string()),
  channel: orderChannelSchema.nullable(),
  createdAt: z.number(),
  createdBy: z.string(),
  lastUsedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
  previousExpiresAt: z.number().nullable().describe('Until when the secret replaced by the last rotation still verifies'),
});

export const integrationWithSecretSchema = z.object({
  integration: integrationSchema,
  secret: z.string().describe('whsec_…: returned only here'),
});

// REST: /api/v1/integrations (operator) — list, create (secret once), rotate (24-hour overlap), revoke (spec "Integrations").
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import { listIntegrations } from '../../channels/integrations/integration-store.js';
import {
  createIntegrationAudited,
  revokeIntegrationAudited,
  rotateIntegrationAudited,
  type IntegrationServiceDeps,
} from '../../channels/integrations/integration-service.js';
import { createIntegrationBodySchema, integrationSchema, integrationWithSecretSchema } from '../../channels/integrations/integration-schemas.js';

const idParams = z.strictObject({ id: z.string().min(1).max(100) });

export function integrationRoutes(deps: IntegrationServiceDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/integrations',
      summary: 'List integrations (no secrets), newest first; revoked ones show revokedAt',
      tag: 'integrations',
      access: 'operator',
      responses: { 200: { description: 'Integrations', schema: z.object({ integrations: z.array(integrationSchema) }) } },
      handler: async () => ({ body: { integrations: await listIntegrations(deps.db) } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/integrations',
      summary: 'Create an integration; its secret (whsec_…) is returned only here',
      tag: 'integrations',
      access: 'operator',
      body: createIntegrationBodySchema,
      responses: {
        201: { description: 'Created', schema: integrationWithSecretSchema },
        400: { description: 'Invalid name (1 to 100 characters), scope or channel' },
      },
      handler: async ({ body, principal, ctx }) => ({ status: 201, body: await createIntegrationAudited(deps, principal!, body, ctx.ip) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/integrations/:id/rotate',
      summary: 'Issue a new secret; the old one keeps working 24 hours (previousExpiresAt), replacing any earlier overlap',
      tag: 'integrations',
      access: 'operator',
      params: idParams,
      responses: { 200: { description: 'Rotated', schema: integrationWithSecretSchema }, 404: { description: 'Unknown or revoked integration' } },
      handler: async ({ params, principal, ctx }) => ({ body: await rotateIntegrationAudited(deps, principal!, params.id, ctx.ip) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/integrations/:id',
      summary: 'Revoke an integration at once, its overlap secret included',
      tag: 'integrations',
      access: 'operator',
      params: idParams,
      responses: { 200: { description: 'Revoked', schema: z.object({ ok: z.literal(true) }) }, 404: { description: 'Absent or already revoked' } },
      handler: async ({ params, principal, ctx }) => {
        await revokeIntegrationAudited(deps, principal!, params.id, ctx.ip);
        return { body: { ok: true } };
      },
    }),
  ];
}

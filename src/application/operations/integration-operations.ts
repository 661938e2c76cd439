// Integrations: the callers of the signed routes; list, create (secret once), rotate with overlap, revoke (spec "Integrations").
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { listIntegrations } from '../../channels/integrations/integration-store.js';
import {
  createIntegrationAudited,
  revokeIntegrationAudited,
  rotateIntegrationAudited,
  type IntegrationServiceDeps,
} from '../../channels/integrations/integration-service.js';
import { createIntegrationBodySchema, integrationSchema, integrationWithSecretSchema } from '../../channels/integrations/integration-schemas.js';
import { okSchema } from '../../lib/ok-schema.js';

const integrationId = z.string().min(1).max(100).describe('The integration id (k= in signatures)');

export function integrationOperations(deps: IntegrationServiceDeps) {
  return [
    defineOperation({
      name: 'listIntegrations',
      summary: 'List integrations (no secrets)',
      description: 'Newest first; revoked ones show revokedAt.',
      feature: 'integrations',
      role: 'operator',
      effect: 'read',
      input: z.object({}),
      output: z.object({ integrations: z.array(integrationSchema) }),
      run: async () => ({ integrations: await listIntegrations(deps.db) }),
    }),
    defineOperation({
      name: 'createIntegration',
      summary: 'Create an integration',
      description: 'Its signing secret (whsec_…) is answered only here. The scope says which events it may deliver, whether it may start orders, on which flows and channel.',
      feature: 'integrations',
      role: 'operator',
      effect: 'write',
      input: createIntegrationBodySchema,
      output: integrationWithSecretSchema,
      example: { name: 'Warehouse', events: ['shipment.dispatched'], startOrders: false },
      run: async (caller, input, call) => createIntegrationAudited(deps, caller, input, call.ip),
    }),
    defineOperation({
      name: 'rotateIntegration',
      summary: 'Issue a new secret for an integration',
      description: 'The old secret keeps verifying for 24 hours (previousExpiresAt), replacing any earlier overlap. 404 when unknown or revoked.',
      feature: 'integrations',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: integrationId }),
      output: integrationWithSecretSchema,
      example: { id: 'int_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (caller, input, call) => rotateIntegrationAudited(deps, caller, input.id, call.ip),
    }),
    defineOperation({
      name: 'revokeIntegration',
      summary: 'Revoke an integration at once',
      description: 'Its secret and any overlap secret stop verifying. 404 when absent or already revoked.',
      feature: 'integrations',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: integrationId }),
      output: okSchema,
      example: { id: 'int_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (caller, input, call) => {
        await revokeIntegrationAudited(deps, caller, input.id, call.ip);
        return { ok: true as const };
      },
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    integrations: ReturnType<typeof integrationOperations>;
  }
}

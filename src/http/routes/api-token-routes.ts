// REST: /api/v1/api-tokens (operator) — list, create (secret shown once), revoke (contract section 4).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { IdentityDeps } from '../../auth/identity-deps.js';
import { createApiToken, listTokens, revokeToken } from '../../auth/api-token-service.js';
import { apiTokenSchema, createTokenBody, idParams, okSchema } from './identity-schemas.js';

export function apiTokenRoutes(deps: IdentityDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/api-tokens',
      summary: 'List API tokens (no secrets)',
      tag: 'api-tokens',
      access: 'operator',
      responses: { 200: { description: 'Live tokens, newest first', schema: z.object({ tokens: z.array(apiTokenSchema) }) } },
      handler: async () => ({ body: { tokens: await listTokens(deps) } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/api-tokens',
      summary: 'Create an API token; the secret (svc_live_…) is returned only here',
      tag: 'api-tokens',
      access: 'operator',
      body: createTokenBody,
      responses: { 201: { description: 'Created', schema: z.object({ token: apiTokenSchema, secret: z.string() }) } },
      handler: async ({ body, principal, ctx }) => ({ status: 201, body: await createApiToken(deps, principal!, body, ctx.ip) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/api-tokens/:id',
      summary: 'Revoke an API token at once',
      tag: 'api-tokens',
      access: 'operator',
      params: idParams,
      responses: { 200: { description: 'Revoked', schema: okSchema }, 404: { description: 'Unknown or already revoked' } },
      handler: async ({ params, principal, ctx }) => {
        await revokeToken(deps, principal!, params.id, ctx.ip);
        return { body: { ok: true } };
      },
    }),
  ];
}

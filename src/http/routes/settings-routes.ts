// REST: /api/v1/settings — the two-factor requirement (read: viewer; change: operator, audited).
import { defineRoute, type RouteDef } from '../route.js';
import type { IdentityDeps } from '../../auth/identity-deps.js';
import { setTwoFactorRequirement } from '../../auth/team-service.js';
import { settingsBody, settingsSchema } from './identity-schemas.js';

export function settingsRoutes(deps: IdentityDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/settings',
      summary: 'Service settings: who must use two-factor',
      tag: 'settings',
      access: 'viewer',
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      handler: async () => ({ body: { twoFactorRequirement: await deps.policy.requirement() } }),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/settings',
      summary: 'Change who must use two-factor (effective within 30 seconds)',
      tag: 'settings',
      access: 'operator',
      body: settingsBody,
      responses: { 200: { description: 'Settings', schema: settingsSchema } },
      handler: async ({ body, principal, ctx }) => ({
        body: { twoFactorRequirement: await setTwoFactorRequirement(deps, principal!, body.twoFactorRequirement, ctx.ip) },
      }),
    }),
  ];
}

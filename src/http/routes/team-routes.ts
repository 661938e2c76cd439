// REST: /api/v1/team (operator) — list, add, change role/enabled, reset password, reset two-factor (contract section 4).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { IdentityDeps } from '../../auth/identity-deps.js';
import { auditActorOf } from '../../auth/audit-log.js';
import { addPerson, listTeam, resetPassword, resetTwoFactor, updateTeamMember } from '../../auth/team-service.js';
import { addPersonBody, idParams, okSchema, patchPersonBody, personSchema } from './identity-schemas.js';

export function teamRoutes(deps: IdentityDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/team',
      summary: 'List the people of the team',
      tag: 'team',
      access: 'operator',
      responses: { 200: { description: 'People', schema: z.object({ people: z.array(personSchema) }) } },
      handler: async () => ({ body: { people: await listTeam(deps) } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/team',
      summary: 'Add a person; returns a 20-character temporary password once',
      tag: 'team',
      access: 'operator',
      body: addPersonBody,
      responses: {
        201: { description: 'Added', schema: z.object({ person: personSchema, temporaryPassword: z.string() }) },
        409: { description: 'Email already in the team' },
      },
      handler: async ({ body, principal, ctx }) => ({
        status: 201,
        body: await addPerson(deps, auditActorOf(principal!), body, ctx.ip),
      }),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/team/:id',
      summary: 'Change role and/or enabled (not your own role downwards, not disabling yourself)',
      tag: 'team',
      access: 'operator',
      params: idParams,
      body: patchPersonBody,
      responses: {
        200: { description: 'Updated', schema: z.object({ person: personSchema }) },
        403: { description: 'Lowering your own role or disabling yourself' },
        409: { description: 'The last active operator (no workspace password)' },
      },
      handler: async ({ params, body, principal, ctx }) => ({
        body: { person: await updateTeamMember(deps, principal!, params.id, body, ctx.ip) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/team/:id/reset-password',
      summary: 'Give a person a new temporary password and end all their sessions',
      tag: 'team',
      access: 'operator',
      params: idParams,
      responses: { 200: { description: 'New temporary password', schema: z.object({ temporaryPassword: z.string() }) } },
      handler: async ({ params, principal, ctx }) => ({
        body: { temporaryPassword: await resetPassword(deps, principal!, params.id, ctx.ip) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/team/:id/reset-two-factor',
      summary: "Turn a person's two-factor off (not your own)",
      tag: 'team',
      access: 'operator',
      params: idParams,
      responses: { 200: { description: 'Done', schema: okSchema } },
      handler: async ({ params, principal, ctx }) => {
        await resetTwoFactor(deps, principal!, params.id, ctx.ip);
        return { body: { ok: true } };
      },
    }),
  ];
}

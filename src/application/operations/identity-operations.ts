// Identity: the team, API tokens, settings and the audit log (contract section 4; operator unless said).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { IdentityDeps } from '../../auth/identity-deps.js';
import { auditActorOf, listAuditEvents } from '../../auth/audit-log.js';
import { addPerson, listTeam, resetPassword, resetTwoFactor, setTwoFactorRequirement, updateTeamMember } from '../../auth/team-service.js';
import { createApiToken, listTokens, revokeToken } from '../../auth/api-token-service.js';
import {
  addPersonBody,
  apiTokenSchema,
  auditEventSchema,
  auditQuery,
  createTokenBody,
  personSchema,
  roleSchema,
  settingsBody,
  settingsSchema,
} from '../../auth/identity-schemas.js';
import { okSchema } from '../../lib/ok-schema.js';

const personId = z.string().min(1).max(100).describe('The person id');
const tokenId = z.string().min(1).max(100).describe('The API token id');

export function identityOperations(deps: IdentityDeps) {
  return [
    defineOperation({
      name: 'listTeam',
      summary: 'List the people of the team',
      description: 'Every person with their role, whether they are enabled, on a temporary password, and using two-factor.',
      feature: 'team',
      role: 'operator',
      effect: 'read',
      input: z.object({}),
      output: z.object({ people: z.array(personSchema) }),
      run: async () => ({ people: await listTeam(deps) }),
    }),
    defineOperation({
      name: 'addPerson',
      summary: 'Add a person to the team',
      description: 'Creates the person with a 20-character temporary password, answered once: they choose their own at first sign-in. 409 when the email is already in the team.',
      feature: 'team',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ ...addPersonBody.shape }),
      output: z.object({ person: personSchema, temporaryPassword: z.string() }),
      example: { email: 'ada@example.com', name: 'Ada Lovelace', role: 'approver' },
      run: async (caller, input, call) => addPerson(deps, auditActorOf(caller), input, call.ip),
    }),
    defineOperation({
      name: 'updatePerson',
      summary: "Change a person's role or enabled",
      description: 'Not your own role downwards and not disabling yourself (403); never leaves the team without an active operator when there is no workspace password (409). Disabling ends their sessions.',
      feature: 'team',
      role: 'operator',
      effect: 'write',
      input: z
        .strictObject({ id: personId, role: roleSchema.optional(), enabled: z.boolean().optional() })
        .refine((b) => b.role !== undefined || b.enabled !== undefined, { message: 'give role or enabled' }),
      output: z.object({ person: personSchema }),
      example: { id: 'per_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', role: 'operator' },
      run: async (caller, input, call) => {
        const { id, ...change } = input;
        return { person: await updateTeamMember(deps, caller, id, change, call.ip) };
      },
    }),
    defineOperation({
      name: 'resetPassword',
      summary: 'Give a person a new temporary password',
      description: 'Answers a new 20-character temporary password once and ends all their sessions.',
      feature: 'team',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: personId }),
      output: z.object({ temporaryPassword: z.string() }),
      example: { id: 'per_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (caller, input, call) => ({ temporaryPassword: await resetPassword(deps, caller, input.id, call.ip) }),
    }),
    defineOperation({
      name: 'resetTwoFactor',
      summary: "Turn a person's two-factor off",
      description: "Removes the person's authenticator and recovery codes (not your own: 403).",
      feature: 'team',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: personId }),
      output: okSchema,
      example: { id: 'per_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (caller, input, call) => {
        await resetTwoFactor(deps, caller, input.id, call.ip);
        return { ok: true as const };
      },
    }),
    defineOperation({
      name: 'listApiTokens',
      summary: 'List API tokens (no secrets)',
      description: 'Live tokens newest first, with their role, prefix, expiry and last use.',
      feature: 'api-tokens',
      role: 'operator',
      effect: 'read',
      input: z.object({}),
      output: z.object({ tokens: z.array(apiTokenSchema) }),
      run: async () => ({ tokens: await listTokens(deps) }),
    }),
    defineOperation({
      name: 'createApiToken',
      summary: 'Create an API token',
      description: 'The secret (svc_live_…) is answered only here. The token acts for the person who made it: its role never exceeds theirs.',
      feature: 'api-tokens',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ ...createTokenBody.shape }),
      output: z.object({ token: apiTokenSchema, secret: z.string() }),
      example: { name: 'warehouse importer', role: 'operator', expiresIn: '90d' },
      run: async (caller, input, call) => createApiToken(deps, caller, input, call.ip),
    }),
    defineOperation({
      name: 'revokeApiToken',
      summary: 'Revoke an API token at once',
      description: 'The token stops working with the next request. 404 when unknown or already revoked.',
      feature: 'api-tokens',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: tokenId }),
      output: okSchema,
      example: { id: 'tok_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (caller, input, call) => {
        await revokeToken(deps, caller, input.id, call.ip);
        return { ok: true as const };
      },
    }),
    defineOperation({
      name: 'getSettings',
      summary: 'Service settings: who must use two-factor',
      description: 'The two-factor requirement in force.',
      feature: 'settings',
      role: 'viewer',
      effect: 'read',
      input: z.object({}),
      output: settingsSchema,
      run: async () => ({ twoFactorRequirement: await deps.policy.requirement() }),
    }),
    defineOperation({
      name: 'updateSettings',
      summary: 'Change who must use two-factor',
      description: 'Takes effect within 30 seconds on every node; audited.',
      feature: 'settings',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ ...settingsBody.shape }),
      output: settingsSchema,
      example: { twoFactorRequirement: 'operators' },
      run: async (caller, input, call) => ({ twoFactorRequirement: await setTwoFactorRequirement(deps, caller, input.twoFactorRequirement, call.ip) }),
    }),
    defineOperation({
      name: 'listAuditEvents',
      summary: 'The audit log, newest first',
      description: 'Sign-ins, team and token changes, settings and integration changes; filter by type, page with `before` (epoch ms).',
      feature: 'audit',
      role: 'operator',
      effect: 'read',
      input: auditQuery,
      output: z.object({ events: z.array(auditEventSchema) }),
      example: { type: 'auth', limit: 50 },
      run: async (_caller, input) => ({ events: await listAuditEvents(deps.db, input) }),
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    identity: ReturnType<typeof identityOperations>;
  }
}

// zod schemas of the identity operations: people, API tokens, settings, audit events (validation and OpenAPI).
import { z } from 'zod';
import { roles } from './roles.js';
import { tokenLifetimes } from './api-token-store.js';
import { twoFactorRequirements } from './two-factor-policy.js';
import { auditTypes } from './audit-log.js';

export const roleSchema = z.enum(roles);
export const idParams = z.object({ id: z.string().min(1).max(100) });

export const personSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  enabled: z.boolean(),
  temporaryPassword: z.boolean(),
  twoFactor: z.object({ enabled: z.boolean(), enabledAt: z.number().nullable() }),
  createdAt: z.number(),
  updatedAt: z.number(),
}).meta({ id: 'Person' });

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema,
  prefix: z.string(),
  createdBy: z.string(),
  createdAt: z.number(),
  expiresAt: z.number().nullable(),
  lastUsedAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
  expired: z.boolean(),
  expiresSoon: z.boolean(),
}).meta({ id: 'ApiToken', description: 'An API token as listed: never its secret' });

export const createTokenBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    role: roleSchema,
    expiresIn: z.enum(tokenLifetimes).default('90d'),
  })
  .strict();

export const addPersonBody = z
  .object({
    email: z.email().max(254),
    name: z.string().trim().max(200).nullish(),
    role: roleSchema,
  })
  .strict();

export const patchPersonBody = z
  .object({ role: roleSchema.optional(), enabled: z.boolean().optional() })
  .strict()
  .refine((b) => b.role !== undefined || b.enabled !== undefined, { message: 'give role or enabled' });

export const settingsBody = z.object({ twoFactorRequirement: z.enum(twoFactorRequirements) }).strict();
export const settingsSchema = z.object({ twoFactorRequirement: z.enum(twoFactorRequirements) }).meta({ id: 'Settings' });

export const auditQuery = z.object({
  type: z.enum(auditTypes).optional(),
  before: z.coerce.number().int().nonnegative().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.number(),
  action: z.string(),
  actor: z.string(),
  actorId: z.string().nullable(),
  actorKind: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
}).meta({ id: 'AuditEvent' });


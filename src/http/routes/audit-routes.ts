// REST: GET /api/v1/audit-events (operator) — newest first; type, before, limit 1-500 (default 100).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { IdentityDeps } from '../../auth/identity-deps.js';
import { listAuditEvents } from '../../auth/audit-log.js';
import { auditEventSchema, auditQuery } from './identity-schemas.js';

export function auditRoutes(deps: IdentityDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/audit-events',
      summary: 'The audit log, newest first',
      tag: 'audit',
      access: 'operator',
      query: auditQuery,
      responses: { 200: { description: 'Events', schema: z.object({ events: z.array(auditEventSchema) }) } },
      handler: async ({ query }) => ({ body: { events: await listAuditEvents(deps.db, query) } }),
    }),
  ];
}

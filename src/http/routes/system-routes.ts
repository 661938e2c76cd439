// Transport-level routes: liveness, readiness and the OpenAPI document (the test clock is an operation now).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { HealthRegistry } from '../../platform/health.js';

export interface SystemRouteDeps {
  serviceName: string;
  health: HealthRegistry;
  openApi: () => Record<string, unknown>;
}

export function systemRoutes(deps: SystemRouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/health',
      operationId: 'checkLiveness',
      summary: 'Liveness',
      tag: 'system',
      access: 'public',
      responses: { 200: { description: 'Alive', schema: z.object({ ok: z.literal(true), service: z.string() }) } },
      handler: () => ({ body: { ok: true, service: deps.serviceName } }),
    }),
    defineRoute({
      method: 'get',
      path: '/health/deep',
      operationId: 'checkReadiness',
      summary: 'Readiness: database, scheduler and Redis checks',
      tag: 'system',
      access: 'public',
      responses: {
        200: {
          description: 'Every check passed',
          schema: z.object({ ok: z.boolean(), service: z.string(), checks: z.record(z.string(), z.enum(['ok', 'fail'])) }),
        },
        503: { description: 'A check failed' },
      },
      handler: async () => {
        const result = await deps.health.run();
        return { status: result.ok ? 200 : 503, body: { ok: result.ok, service: deps.serviceName, checks: result.checks } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tag: 'system',
      access: 'public',
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
      handler: () => ({ body: deps.openApi(), headers: { 'Cache-Control': 'public, max-age=300' } }),
    }),
  ];
}

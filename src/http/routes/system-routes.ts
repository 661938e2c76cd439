// Health, the OpenAPI document and the test clock route.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { HealthRegistry } from '../../app/health.js';
import type { TestClockController } from '../../engine/test-clock-controller.js';
import { DomainError } from '../../domain/errors.js';

export interface SystemRouteDeps {
  serviceName: string;
  health: HealthRegistry;
  /** Present only with TEST_CLOCK=1; otherwise the route does not exist (404). */
  testClock: TestClockController | null;
  clockNow: () => number;
  openApi: () => Record<string, unknown>;
}

/** The farthest one call moves the test clock (a far `now` would fire years of daily jobs and hang the call). */
const MAX_CLOCK_STEP_MS = 10 * 365 * 86_400_000;

const clockBody = z
  .object({
    advanceMs: z.number().int().min(0).max(MAX_CLOCK_STEP_MS).optional(),
    now: z.number().int().positive().optional(),
  })
  .strict()
  .refine((b) => (b.advanceMs === undefined) !== (b.now === undefined), { message: 'give exactly one of advanceMs or now' });

export function systemRoutes(deps: SystemRouteDeps): RouteDef[] {
  const routes: RouteDef[] = [
    defineRoute({
      method: 'get',
      path: '/health',
      summary: 'Liveness',
      tag: 'system',
      access: 'public',
      responses: { 200: { description: 'Alive', schema: z.object({ ok: z.literal(true), service: z.string() }) } },
      handler: () => ({ body: { ok: true, service: deps.serviceName } }),
    }),
    defineRoute({
      method: 'get',
      path: '/health/deep',
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
      summary: 'This OpenAPI 3.1 document',
      tag: 'system',
      access: 'public',
      responses: { 200: { description: 'OpenAPI 3.1 document' } },
      handler: () => ({ body: deps.openApi(), headers: { 'Cache-Control': 'public, max-age=300' } }),
    }),
  ];
  const controller = deps.testClock;
  if (controller)
    routes.push(
      defineRoute({
        method: 'post',
        path: '/api/v1/test/clock',
        summary: 'Move the test clock forward and fire what became due (TEST_CLOCK=1 only)',
        tag: 'system',
        access: 'operator',
        body: clockBody,
        responses: { 200: { description: 'The new time', schema: z.object({ now: z.number() }) } },
        handler: async ({ body }) => {
          const current = deps.clockNow();
          const target = body.now ?? current + (body.advanceMs ?? 0);
          if (target < current) throw new DomainError('clock_backward', 'The test clock only moves forward', 'invalid_input');
          if (target > current + MAX_CLOCK_STEP_MS) throw new DomainError('clock_too_far', 'The test clock moves at most 10 years per call', 'invalid_input');
          return { body: { now: await controller.advanceTo(target) } };
        },
      }),
    );
  return routes;
}

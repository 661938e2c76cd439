// System: process gauges, and the test clock that exists only with TEST_CLOCK=1.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Engine } from '../../engine/engine-module.js';
import type { TestClockController } from '../../engine/test-clock-controller.js';
import { DomainError } from '../../domain/errors.js';

const statsSchema = z
  .object({
    liveOrders: z.number().int(),
    compiledFlows: z.number().int(),
    scheduler: z.object({ running: z.boolean(), index: z.string(), indexHealthy: z.boolean(), degraded: z.boolean(), firing: z.number() }),
    memory: z.object({ rss: z.number(), heapUsed: z.number() }),
  })
  .meta({ id: 'RuntimeStats' });

/** The farthest one call moves the test clock (a far `now` would fire years of daily jobs and hang the call). */
const MAX_CLOCK_STEP_MS = 10 * 365 * 86_400_000;

export function systemOperations(deps: { engine: Engine; testClock: TestClockController | null; clockNow: () => number }) {
  const { engine } = deps;
  const stats = defineOperation({
    name: 'getRuntimeStats',
    summary: 'Process gauges: live per-order state, compiled flows, scheduler, memory',
    description: "Gauges of the process that answers (not the cluster). Live orders are 0 when nothing runs: paused orders cost no memory.",
    feature: 'system',
    role: 'viewer',
    effect: 'read',
    input: z.object({}),
    output: statsSchema,
    run: async () => {
      const mem = process.memoryUsage();
      return {
        liveOrders: engine.runtime.liveOrders,
        compiledFlows: engine.registry.size,
        scheduler: await engine.scheduler.status(),
        memory: { rss: mem.rss, heapUsed: mem.heapUsed },
      };
    },
  });
  const controller = deps.testClock;
  // Only with TEST_CLOCK=1: otherwise the operation does not exist at all (no route, no tool).
  const clock = controller
    ? [
        defineOperation({
          name: 'advanceTestClock',
          summary: 'Move the test clock forward and fire what became due',
          description: 'Only with TEST_CLOCK=1. Give `advanceMs` or an absolute `now` (epoch ms); the clock never goes back and moves at most 10 years per call.',
          feature: 'system',
          role: 'operator',
          effect: 'write',
          input: z
            .strictObject({
              advanceMs: z.number().int().min(0).max(MAX_CLOCK_STEP_MS).optional(),
              now: z.number().int().positive().optional(),
            })
            .refine((b) => (b.advanceMs === undefined) !== (b.now === undefined), { message: 'give exactly one of advanceMs or now' }),
          output: z.object({ now: z.number() }),
          example: { advanceMs: 3_600_000 },
          run: async (_caller, input) => {
            const current = deps.clockNow();
            const target = input.now ?? current + (input.advanceMs ?? 0);
            if (target < current) throw new DomainError('clock_backward', 'The test clock only moves forward', 'invalid_input');
            if (target > current + MAX_CLOCK_STEP_MS) throw new DomainError('clock_too_far', 'The test clock moves at most 10 years per call', 'invalid_input');
            return { now: await controller.advanceTo(target) };
          },
        }),
      ]
    : [];
  return [stats, ...clock];
}

declare module '../operation-types.js' {
  interface OperationModules {
    system: ReturnType<typeof systemOperations>;
  }
}

// GET /api/v1/runtime/stats: gauges of what the process holds (live order actors must be 0 when idle).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { Engine } from '../../engine/engine-module.js';

const statsSchema = z.object({
  liveOrders: z.number().int(),
  compiledFlows: z.number().int(),
  scheduler: z.object({ running: z.boolean(), index: z.string(), indexHealthy: z.boolean(), degraded: z.boolean(), firing: z.number() }),
  memory: z.object({ rss: z.number(), heapUsed: z.number() }),
});

export function runtimeStatsRoutes(engine: Engine): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/runtime/stats',
      summary: 'Process gauges: live per-order state, compiled flows, scheduler, memory',
      tag: 'system',
      access: 'viewer',
      responses: { 200: { description: 'Gauges of this process', schema: statsSchema } },
      handler: async () => {
        const mem = process.memoryUsage();
        return {
          body: {
            liveOrders: engine.runtime.liveOrders,
            compiledFlows: engine.registry.size,
            scheduler: await engine.scheduler.status(),
            memory: { rss: mem.rss, heapUsed: mem.heapUsed },
          },
        };
      },
    }),
  ];
}

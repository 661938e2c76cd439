// Where orders spend their time (contract section 17): a version's runs, durations, active orders and edges taken over a range of order creation.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Engine } from '../../engine/engine-module.js';
import { notFound, ValidationError } from '../../domain/errors.js';
import { ORDER_STATUSES } from '../../orders/order-schemas.js';
import { readFlowStats } from '../../orders/flow-stats-read.js';
import { hourOf } from '../../orders/flow-stats-worker.js';

export interface FlowStatsOperationDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

const DAY_MS = 86_400_000;
/** The default range: the last 7 days of order creation. */
export const DEFAULT_RANGE_MS = 7 * DAY_MS;
/** The longest range one answer covers (it reads one row per node and hour of it). */
export const MAX_RANGE_MS = 93 * DAY_MS;
/** Epoch ms a range may name at most (year 2286: beyond it JavaScript dates stop being useful). */
const MAX_TIME = 10_000_000_000_000;

const flowId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit');
const ms = z.number().int().nullable();

export const flowStatsSchema = z
  .object({
    flowId: z.string(),
    version: z.number().int(),
    from: z.number().int().describe('Epoch ms, rounded down to the hour: orders created in hours starting at `from` through `to` count'),
    to: z.number().int().describe('Epoch ms, rounded down to the hour'),
    orders: z.record(z.enum(ORDER_STATUSES), z.number().int()).describe('Orders of the range by their current status'),
    nodes: z.record(
      z.string(),
      z.object({
        runs: z.number().int().describe('Runs ended: succeeded, failed, or cut short when the order ended'),
        succeeded: z.number().int(),
        failed: z.number().int(),
        activeNow: z.number().int().describe('Orders running or waiting at the node now, whatever the range'),
        durationMs: z
          .object({ p50: ms, p95: ms, max: ms })
          .describe('Over finished runs (endedAt - startedAt; a wait: the time it waited); nearest rank, exact up to 10,000 runs, within 5 % above beyond; null with none'),
      }),
    ),
    edges: z.array(z.object({ from: z.string(), to: z.string(), branch: z.string(), count: z.number().int().describe('Times taken') })),
  })
  .meta({ id: 'FlowStats', description: 'Contract section 17: where the orders of a flow version spend their time' });

/** The input, read from a query string (numbers coerced). */
export const flowStatsInput = z.object({
  id: flowId,
  version: z.coerce.number().int().positive().max(2_147_483_647).optional().describe('The published version (default the latest)'),
  from: z.coerce.number().int().min(0).max(MAX_TIME).optional().describe('Epoch ms of order creation (default 7 days before `to`)'),
  to: z.coerce.number().int().min(0).max(MAX_TIME).optional().describe('Epoch ms of order creation (default now)'),
});

export function flowStatsOperations(deps: FlowStatsOperationDeps) {
  const { db, engine } = deps;
  return {
    getFlowStats: defineOperation({
      name: 'getFlowStats',
      summary: 'Where orders of a flow version spend their time',
      description:
        'For a published version (default the latest) and the orders created between `from` and `to` (epoch ms, rounded down to the hour; default the last 7 days): orders by current status, each node\'s runs, successes, failures, orders at it now (`activeNow`) and durations (p50, p95, max; nearest rank, exact up to 10,000 runs, within 5 % above beyond), and how often each edge was taken. Read from aggregates a background worker keeps (a few seconds behind the runs), never from the orders. A range over 93 days, or `from` after `to`, is refused.',
      feature: 'flows',
      role: 'viewer',
      effect: 'read',
      input: flowStatsInput,
      output: flowStatsSchema,
      example: { id: 'tpl-marketplace-order', from: 1_764_547_200_000, to: 1_765_152_000_000 },
      run: async (_caller, input) => {
        const to = input.to ?? deps.clock.now();
        const from = input.from ?? Math.max(0, to - DEFAULT_RANGE_MS);
        if (from > to) throw new ValidationError([{ path: 'from', message: 'must not be after to' }]);
        if (to - from > MAX_RANGE_MS) throw new ValidationError([{ path: 'from', message: `the range may cover at most ${MAX_RANGE_MS / DAY_MS} days` }]);
        const flow = await engine.flows.get(db, input.id);
        if (!flow) throw notFound('Flow');
        const version = input.version ?? flow.publishedVersion;
        if (version === null) throw notFound('Published version');
        if (!(await engine.flows.version(db, input.id, version))) throw notFound('Flow version');
        const { compiled } = await engine.registry.load(db, input.id, version);
        const stats = await readFlowStats(
          db,
          { flowId: input.id, version, fromHour: hourOf(from), toHour: hourOf(to) },
          { nodes: [...compiled.nodes.keys()], edges: compiled.edges },
        );
        return stats;
      },
    }),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    flowStats: ReturnType<typeof flowStatsOperations>;
  }
}

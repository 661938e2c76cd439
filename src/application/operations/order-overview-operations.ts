// Orders read to reason over (REST, and the agents' get_order, find_orders and needs_attention): one order's brief, a search's totals, what needs attention.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { approvalRowSchema } from './approval-operations.js';
import { orderFilterQueryShape, withFilterRules } from '../../orders/order-filter-schema.js';
import { readOrderBrief } from '../../orders/order-brief.js';
import { findOrders } from '../../orders/order-find.js';
import { needsAttention } from '../../orders/attention.js';
import { ORDER_STATUSES, liveHoldSchema, liveNodeSchema, liveTimerSchema, liveWaitSchema, orderListRowSchema, orderSummarySchema, timelineEntrySchema } from '../../orders/order-schemas.js';
import type { OrderOperationDeps } from './order-operations.js';

const status = z.enum(ORDER_STATUSES);

/** Most rows a search answers beside its totals. */
export const TOTALS_ROWS_MAX = 200;

/** One order as a caller reasoning over it needs it (contract 11 get_order): waits with where each answer leads, steps run, recent activity. */
export const orderBriefSchema = z.object({
  orderId: z.string(),
  status,
  reason: z.string().nullable(),
  order: orderSummarySchema,
  waits: z.array(
    liveWaitSchema.extend({
      label: z.string(),
      leadsTo: z.record(z.string(), z.string()).describe('branch -> the label of the step it leads to'),
    }),
  ),
  timers: z.array(liveTimerSchema).describe('Timer waits (a delay, a return window, a retry backoff): the order resumes on its own at `until`'),
  holds: z.array(liveHoldSchema.extend({ label: z.string() })).describe('Held steps (contract 16): resolve_hold retries or rolls back each'),
  steps: z.array(
    z.object({
      nodeId: z.string(),
      label: z.string(),
      type: liveNodeSchema.shape.type,
      status: z.string(),
      runs: z.number().int(),
      summary: z.string().nullable(),
      error: z.string().nullable(),
      durationMs: z.number().nullable().describe('Once the step ended: how long its last run took'),
    }),
  ),
  activity: z.array(timelineEntrySchema),
});

/** Every match counted and totalled in USD, with the newest rows (contract 11 find_orders). */
export const orderTotalsSchema = z.object({ count: z.number().int(), totalUsd: z.number(), orders: z.array(orderListRowSchema) });

/** Contract 11 needs_attention. */
export const attentionSchema = z.object({
  approvals: z.array(approvalRowSchema),
  failed: z.array(orderListRowSchema),
  waiting: z.array(orderListRowSchema.extend({ event: z.string().nullable(), since: z.number() })),
  held: z
    .array(orderListRowSchema.extend({ nodeId: z.string(), title: z.string(), error: z.string(), since: z.number() }))
    .describe('Orders whose step is held (contract 16), longest held first: retry or roll back each'),
  counts: z.object({ approvals: z.number().int(), failed: z.number().int(), waiting: z.number().int(), held: z.number().int() }),
});

/** The filters of a search, read from a query string (numbers coerced). */
const totalsInput = z.object({
  ...orderFilterQueryShape,
  minTotalUsd: z.coerce.number().min(0).optional().describe('The order total in USD (at the order’s own rate), inclusive'),
  maxTotalUsd: z.coerce.number().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(TOTALS_ROWS_MAX).default(20).describe(`Rows answered, 1 to ${TOTALS_ROWS_MAX} (default 20); count and totalUsd cover every match`),
}).superRefine(withFilterRules);

export function orderOverviewOperations(deps: OrderOperationDeps) {
  const { db, engine } = deps;
  return {
    getOrderBrief: defineOperation({
      name: 'getOrderBrief',
      summary: 'One order in brief: status, waits and where each answer leads, steps run, recent activity',
      description:
        'The order summary, its open waits each with `label` and `leadsTo` (each branch and the label of the step it leads to), the steps that ran with their status and summary, and the latest 20 timeline entries. What the agents\' get_order answers.',
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: z.string().min(1).max(100).describe('The order id (ord_…)') }),
      output: orderBriefSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => readOrderBrief(db, engine, input.id),
    }),
    getOrderTotals: defineOperation({
      name: 'getOrderTotals',
      summary: 'Count and USD total of every order matching filters, with the newest of them',
      description:
        'Filters by text, status, model, channel, flow (and version), the node where the order is parked, a seller or SKU of its lines (contract 16), total in USD (each order converted at its own rate) and creation time (epoch ms, inclusive). `count` and `totalUsd` cover every match; `orders` holds up to `limit` of them, newest first. What the agents\' find_orders answers.',
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: totalsInput,
      output: orderTotalsSchema,
      example: { status: 'waiting', model: 'marketplace', createdAfter: 1_764_547_200_000, limit: 10 },
      run: async (_caller, input) => findOrders(db, deps.searchMode(), input),
    }),
    getAttention: defineOperation({
      name: 'getAttention',
      summary: 'What needs attention: open approvals, recent failures, orders stuck on an event, held steps',
      description:
        'Open approvals oldest first; orders failed or rolled back in the last 3 days, newest first; orders waiting on a business event for over a day, longest first; orders whose step is held (contract 16), longest held first. Each list holds at most 100; `counts` gives the totals. What the agents\' needs_attention answers.',
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: z.object({}),
      output: attentionSchema,
      run: async () => needsAttention(db, deps.clock.now()),
    }),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    orderOverview: ReturnType<typeof orderOverviewOperations>;
  }
}

// The order's view schemas (list row, live state, command results): what every transport answers, named for OpenAPI.
import { z } from 'zod';
import { FINISHED_STATUSES } from '../engine/runtime/run-row.js';

export const ORDER_STATUSES = ['queued', 'running', 'waiting', ...FINISHED_STATUSES] as const;

export const orderIdParams = z.strictObject({ id: z.string().min(1).max(100) });
export const orderNodeParams = z.strictObject({ id: z.string().min(1).max(100), nodeId: z.string().min(1).max(100) });

export { okSchema } from '../lib/ok-schema.js';
/** A start's answer: the new order, or with `replayed: true` the order an Idempotency-Key recorded earlier. */
export const startedSchema = z
  .object({ orderId: z.string(), replayed: z.literal(true).optional().describe('Present when an Idempotency-Key named an order started earlier') })
  .meta({ id: 'StartedOrder' });
/** A return's answer (contract 18): the new return and its order, or with `replayed: true` the return an Idempotency-Key started earlier. */
export const startedReturnSchema = z
  .object({
    returnId: z.string().describe('The return: an order id of its own'),
    orderId: z.string().describe('The order it returns from'),
    replayed: z.literal(true).optional().describe('Present when an Idempotency-Key named a return started earlier'),
  })
  .meta({ id: 'StartedReturn' });
export const deliverResultSchema = z.object({
  delivered: z.boolean(),
  nodeId: z.string().optional(),
  waitingFor: z.array(z.string()).optional().describe('When not delivered: the events the order waits for now (empty once it has finished)'),
}).meta({ id: 'DeliverResult' });

/** Spec "Order list row". */
export const orderListRowSchema = z.object({
  id: z.string(),
  model: z.string(),
  channel: z.string(),
  externalId: z.string().nullable(),
  contactEmail: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  title: z.string().nullable(),
  flowId: z.string(),
  flowVersion: z.number().int(),
  instanceId: z.string(),
  generation: z.number().int(),
  customerId: z.string().nullable(),
  currency: z.string(),
  total: z.number(),
  waitingOn: z.array(z.string()).describe('Titles of the open waits, then a held step\'s title (contract 16)'),
  waitingAt: z.array(z.string()).describe('Labels of the steps holding them'),
  waitingSince: z.number().nullable().describe('Epoch ms of the oldest open wait'),
  createdAt: z.number(),
  updatedAt: z.number(),
}).meta({ id: 'OrderListRow', description: 'Spec "Order list row"' });

export const orderListSchema = z.object({ orders: z.array(orderListRowSchema), nextCursor: z.string().nullable() }).meta({ id: 'OrderList' });

export const orderSummarySchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  channel: z.string(),
  externalId: z.string().nullable(),
  title: z.string().nullable(),
  customerId: z.string().nullable(),
  currency: z.string(),
  subtotal: z.number(),
  tax: z.number(),
  total: z.number(),
  fxRate: z.number().describe('Units of the currency per one USD'),
  baseTotal: z.number().describe('The total in USD'),
  returnOf: z.string().nullable().optional().describe('On a return (contract 18): the order it gives units back to; null for any other order'),
}).meta({ id: 'Order', description: "The commerce order: its ids, money and customer (the live state's `order`)" });

/** One node of a run as the live state shows it: its status, runs, output or error, and the branches it left by. */
export const liveNodeSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  label: z.string().nullable(),
  status: z.string(),
  runs: z.number().int(),
  attempt: z.number().int().describe('The attempt of the current run (1 and up; a running external step shows the one in flight)'),
  summary: z.string().nullable(),
  output: z.unknown(),
  error: z.string().nullable(),
  branches: z.array(z.string()),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  durationMs: z.number().nullable().describe('Once the node ended: endedAt - startedAt of its last run (for a wait, the time it waited); null before'),
}).meta({ id: 'LiveNode' });

/** An open wait of the live state: an approval or a business event (delays are not listed). */
export const liveWaitSchema = z.object({
  nodeId: z.string(),
  kind: z.enum(['approval', 'event']),
  title: z.string().nullable(),
  event: z.string().nullable(),
  assignee: z.string().nullable(),
  amount: z.number().nullable(),
  deadline: z.number().nullable(),
  since: z.number(),
});

/** A timer the order waits out: a delay (`wait.delay`, a return window) or a step's retry backoff, with when it resumes. */
export const liveTimerSchema = z.object({
  nodeId: z.string(),
  kind: z.enum(['delay', 'retry']),
  label: z.string().describe('The label of the node that waits'),
  since: z.number().describe('Epoch ms the wait began (a retry: when the failed attempt was recorded)'),
  until: z.number().describe('Epoch ms it resumes'),
}).meta({ id: 'LiveTimer' });
/** A held step of the live state (contract 16): it failed with `onFailure: "hold"` and waits for a retry or a rollback. */
export const liveHoldSchema = z.object({
  nodeId: z.string(),
  title: z.string().describe('`<node label> failed: <error>`'),
  error: z.string(),
  since: z.number(),
});

/** One timeline entry of an order. */
export const timelineEntrySchema = z.object({ at: z.number(), kind: z.string(), message: z.string(), nodeId: z.string().nullable(), data: z.unknown() });

/** One return of an order (contract 18), as its live state lists it; amounts in the order currency. */
export const orderReturnSchema = z.object({
  returnId: z.string().describe('The return, an order id of its own (GET /api/v1/orders/<returnId>)'),
  status: z.enum(ORDER_STATUSES),
  lines: z.array(z.object({ sku: z.string(), sellerId: z.string().nullable(), qty: z.number().int(), amount: z.number() })),
  amount: z.number().describe("The refund the returned lines are worth: their share of the order's total, tax included"),
  reason: z.string().nullable(),
  createdAt: z.number(),
}).meta({ id: 'OrderReturn' });

/** What may still be returned of an order: units left per SKU and seller, or why no return may start. */
export const returnableSchema = z.object({
  lines: z.array(z.object({ sku: z.string(), sellerId: z.string().nullable(), name: z.string().nullable(), qty: z.number().int() })),
  closed: z.string().nullable().describe('Why no return may start (not paid yet, payouts scheduled, ended, a return itself); null when one may'),
  windowEndsAt: z.number().nullable().describe('Flows without a payout: when the return window closes (returnWindowDays after capture)'),
});

/** Spec "Order live state" (plus `documents`: links to the order's stored documents). */
export const orderLiveStateSchema = z.looseObject({
  orderId: z.string(),
  status: z.enum(ORDER_STATUSES),
  reason: z.string().nullable(),
  order: orderSummarySchema,
  flow: z.looseObject({ id: z.string(), version: z.number().int(), name: z.string(), graph: z.unknown() }),
  nodes: z.record(z.string(), liveNodeSchema),
  edges: z.array(z.looseObject({ from: z.string(), to: z.string(), branch: z.string(), status: z.enum(['pending', 'active', 'inactive']) })),
  waits: z.array(liveWaitSchema),
  timers: z.array(liveTimerSchema).describe('Timer waits (delays, retry backoffs), soonest first: the order resumes on its own at `until`'),
  holds: z.array(liveHoldSchema).describe('Held steps (contract 16): retry or roll back each with POST /api/v1/orders/:id/holds/:nodeId'),
  vars: z.record(z.string(), z.unknown()),
  returns: z.array(orderReturnSchema).describe('The returns of the order, oldest first (contract 18); none on a return'),
  returnable: returnableSchema,
  timeline: z.array(timelineEntrySchema),
  instanceId: z.string(),
  generation: z.number().int(),
  rollback: z.object({ outcome: z.string(), error: z.string().nullable() }).optional(),
  updatedAt: z.number(),
  documents: z.array(
    z.object({ id: z.string(), kind: z.string(), name: z.string(), contentType: z.string(), createdAt: z.number(), url: z.string() }),
  ),
}).meta({ id: 'LiveState', description: 'Spec "Order live state": the order, its flow, every node and edge, open waits, vars and timeline' });

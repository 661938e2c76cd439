// The order's view schemas (list row, live state, command results): what every transport answers, named for OpenAPI.
import { z } from 'zod';
import { FINISHED_STATUSES } from '../engine/runtime/order-row.js';

export const ORDER_STATUSES = ['queued', 'running', 'waiting', ...FINISHED_STATUSES] as const;

export const orderIdParams = z.strictObject({ id: z.string().min(1).max(100) });
export const orderNodeParams = z.strictObject({ id: z.string().min(1).max(100), nodeId: z.string().min(1).max(100) });

export { okSchema } from '../lib/ok-schema.js';
/** A start's answer: the new order, or with `replayed: true` the order an Idempotency-Key recorded earlier. */
export const startedSchema = z
  .object({ orderId: z.string(), replayed: z.literal(true).optional().describe('Present when an Idempotency-Key named an order started earlier') })
  .meta({ id: 'StartedOrder' });
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

/** A held step of the live state (contract 16): it failed with `onFailure: "hold"` and waits for a retry or a rollback. */
export const liveHoldSchema = z.object({
  nodeId: z.string(),
  title: z.string().describe('`<node label> failed: <error>`'),
  error: z.string(),
  since: z.number(),
});

/** One timeline entry of an order. */
export const timelineEntrySchema = z.object({ at: z.number(), kind: z.string(), message: z.string(), nodeId: z.string().nullable(), data: z.unknown() });

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
  holds: z.array(liveHoldSchema).describe('Held steps (contract 16): retry or roll back each with POST /api/v1/orders/:id/holds/:nodeId'),
  vars: z.record(z.string(), z.unknown()),
  timeline: z.array(timelineEntrySchema),
  instanceId: z.string(),
  generation: z.number().int(),
  rollback: z.object({ outcome: z.string(), error: z.string().nullable() }).optional(),
  updatedAt: z.number(),
  documents: z.array(
    z.object({ id: z.string(), kind: z.string(), name: z.string(), contentType: z.string(), createdAt: z.number(), url: z.string() }),
  ),
}).meta({ id: 'LiveState', description: 'Spec "Order live state": the order, its flow, every node and edge, open waits, vars and timeline' });

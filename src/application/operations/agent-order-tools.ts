// Agents' order tools (contract sections 11, 16, 18) as adapters of the operations REST binds: place, find, read, what needs attention, assess, decide, deliver, resolve a hold, cancel, return.
import { z } from 'zod';
import { agentTool } from '../agent-tool.js';
import { startOrderBodySchema } from '../../domain/order-input-schema.js';
import { orderFilterBodySchema, withFilterRules } from '../../orders/order-filter-schema.js';
import { AGENT_ORDERS_SCOPE, IDEMPOTENCY_KEY_MAX } from '../../orders/idempotency.js';
import { readOrderStatus } from '../../orders/order-status.js';
import { soleApprovalNode } from '../../orders/sole-approval.js';
import { soleHoldNode } from '../../orders/sole-hold.js';
import { declaredPayloadsText } from '../../nodes/event-payloads.js';
import { COMMAND_LIMITS, eventPayloadSchema, returnBodySchema } from '../../orders/command-schemas.js';
import { ORDER_STATUSES } from '../../orders/order-schemas.js';
import { assessOrderInputSchema } from '../../orders/assessment-schemas.js';
import type { OrderOperationDeps, orderOperations } from './order-operations.js';
import type { orderOverviewOperations } from './order-overview-operations.js';
import { ASSESS_EXAMPLE_QUESTIONS, type assessOrderOperation } from './assess-order.js';

/** Orders started over an agent transport name their cancel reason after it; REST has its own default. */
export const AGENT_CANCEL_REASON = 'Cancelled by an agent';

const orderId = z.string().min(1).max(100).describe('The order id (ord_…)');
const status = z.enum(ORDER_STATUSES);

/** The operations the order tools adapt: the very objects the registry holds and REST binds. */
export interface OrderToolBases {
  orders: ReturnType<typeof orderOperations>;
  overview: ReturnType<typeof orderOverviewOperations>;
  assessOrder: ReturnType<typeof assessOrderOperation>;
}

export function agentOrderTools(deps: Pick<OrderOperationDeps, 'db'>, bases: OrderToolBases) {
  const { orders, overview } = bases;
  return [
    agentTool(orders.startOrder, {
      name: 'place_order',
      summary: 'Start an order on a published flow',
      description: 'Starts an order with the same body as POST /api/v1/orders and answers its id and status once its first slice ran (it may already wait for an approval or an event).',
      input: z.strictObject({
        ...startOrderBodySchema.shape,
        idempotencyKey: z
          .string()
          .min(1)
          .max(IDEMPOTENCY_KEY_MAX)
          .optional()
          .describe('Optional: a repeat with the same key and body answers the first order (kept 7 days); A2A derives one from the messageId'),
      }),
      output: z.object({ orderId: z.string(), status }),
      example: { flowId: 'tpl-storefront-order', input: { model: 'b2c', title: 'Mug for Ada', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } },
      summarize: (o) => `Order ${o.orderId} started; it is ${o.status.replace('_', ' ')}.`,
      // Agents' keys live apart from REST's Idempotency-Key values, in the same record (claimed in the start's transaction).
      idempotencyScope: AGENT_ORDERS_SCOPE,
      mapIn: (input) => input,
      // The start committed: its status is read back (an orders query), as the answer promises it.
      mapOut: async (started) => ({ orderId: started.orderId, status: (await readOrderStatus(deps.db, started.orderId))?.status ?? 'queued' }),
    }),
    agentTool(overview.getOrderTotals, {
      name: 'find_orders',
      summary: 'Search orders: count and USD total of every match, with the newest rows',
      description:
        'Filters by text, status, model, channel, flow (flowId, flowVersion), the node where the order is parked (waitingAtNode), a seller or SKU of its lines (sellerId, sku), total in USD (each order converted at its own rate) and creation time (epoch ms, inclusive). `count` and `totalUsd` cover every match; `orders` holds up to `limit` of them, newest first.',
      input: z.strictObject({
        ...orderFilterBodySchema.shape,
        minTotalUsd: z.number().min(0).optional(),
        maxTotalUsd: z.number().min(0).optional(),
        limit: z.number().int().min(1).max(200).default(20),
      }).superRefine(withFilterRules),
      output: overview.getOrderTotals.output,
      example: { status: 'waiting', model: 'marketplace', createdAfter: 1_764_547_200_000, limit: 10 },
      summarize: (o) => `${o.count} order${o.count === 1 ? '' : 's'} match, ${o.totalUsd.toFixed(2)} USD in all; ${o.orders.length} shown, newest first.`,
      mapIn: (input) => input,
      mapOut: (found) => found,
    }),
    agentTool(overview.getOrderBrief, {
      name: 'get_order',
      summary: 'One order: status, waits and where each answer leads, steps run, recent activity',
      description: 'The order summary, its open waits with `leadsTo` (each branch and the step it leads to), the steps that ran with their status and summary, and the latest 20 timeline entries.',
      input: z.strictObject({ orderId }),
      output: overview.getOrderBrief.output,
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      summarize: (o) =>
        `Order ${o.orderId} is ${o.status.replace('_', ' ')}${o.reason ? ` (${o.reason})` : ''}` +
        (o.waits.length ? `; it waits for ${o.waits.map((w) => (w.kind === 'approval' ? `approval at ${w.label}` : `event ${w.event}`)).join(', ')}` : '') +
        (o.timers.length ? `; ${o.timers.map((w) => `waiting until ${new Date(w.until).toISOString()} (${w.label}${w.kind === 'retry' ? ', before retrying' : ''})`).join(', ')}` : '') +
        '.',
      mapIn: (input) => ({ id: input.orderId }),
      mapOut: (brief) => brief,
    }),
    agentTool(overview.getAttention, {
      name: 'needs_attention',
      summary: 'What needs attention: open approvals, recent failures, orders stuck on an event, held steps',
      description:
        'Open approvals oldest first; orders failed or rolled back in the last 3 days, newest first; orders waiting on a business event for over a day, longest first; orders whose step is held (`held`, contract 16), longest held first: resolve_hold retries or rolls back each. Each list holds at most 100; `counts` gives the totals.',
      input: z.strictObject({}),
      output: overview.getAttention.output,
      summarize: (o) =>
        `${o.counts.approvals} approval${o.counts.approvals === 1 ? '' : 's'} open, ${o.counts.failed} order${o.counts.failed === 1 ? '' : 's'} failed or rolled back in the last 3 days, ${o.counts.waiting} waiting over a day for an event, ${o.counts.held} held.`,
      mapIn: () => ({}),
      mapOut: (attention) => attention,
    }),
    agentTool(bases.assessOrder, {
      name: 'assess_order',
      summary: bases.assessOrder.summary,
      description: bases.assessOrder.description,
      input: assessOrderInputSchema,
      output: bases.assessOrder.output,
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', questions: ASSESS_EXAMPLE_QUESTIONS },
      summarize: bases.assessOrder.summarize,
      mapIn: ({ orderId: id, ...rest }) => ({ id, ...rest }),
      mapOut: (answers) => answers,
    }),
    agentTool(orders.decideApproval, {
      name: 'decide_approval',
      summary: 'Approve or reject a waiting approval',
      description: 'Decides the approval waiting at `nodeId`; without `nodeId` the order must have exactly one open approval. Recorded as the caller.',
      input: z.strictObject({
        orderId,
        nodeId: z.string().min(1).max(100).optional(),
        decision: z.enum(['approved', 'rejected']),
        note: z.string().max(COMMAND_LIMITS.note).optional(),
      }),
      output: z.object({ ok: z.literal(true), nodeId: z.string() }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', decision: 'approved', note: 'Known customer' },
      summarize: (o) => `Decided the approval at ${o.nodeId}.`,
      // Without nodeId, the order's one open approval (an orders query; none or several is a conflict).
      mapIn: async (input) => ({ id: input.orderId, nodeId: input.nodeId ?? (await soleApprovalNode(deps.db, input.orderId)), decision: input.decision, note: input.note }),
      mapOut: (ok, decided) => ({ ok: ok.ok, nodeId: decided.nodeId }),
    }),
    agentTool(orders.deliverEvent, {
      name: 'deliver_event',
      summary: 'Deliver a business event to the order',
      description: `Resumes the step waiting for \`event\` with \`payload\`; \`delivered: false\` (with \`waitingFor\`) when nothing waits for it. ${declaredPayloadsText()}`.trim(),
      input: z.strictObject({ orderId, event: z.string().min(1).max(COMMAND_LIMITS.event), payload: eventPayloadSchema.optional() }),
      output: z.object({ delivered: z.boolean(), nodeId: z.string().optional(), waitingFor: z.array(z.string()).optional() }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', event: 'payment.confirmed' },
      summarize: (o) =>
        o.delivered ? `Delivered to ${o.nodeId}.` : `Nothing waits for that event${o.waitingFor?.length ? `; the order waits for ${o.waitingFor.join(', ')}` : ''}.`,
      mapIn: (input) => ({ id: input.orderId, event: input.event, payload: input.payload }),
      mapOut: (result) => result,
    }),
    agentTool(orders.resolveHold, {
      name: 'resolve_hold',
      summary: 'Retry or roll back a held step',
      description:
        'For an order whose step is held after a failure (contract 16; needs_attention lists them under `held`): `retry` runs the same run of the step again (an http.call keeps its Idempotency-Key, so nothing is charged twice), `rollback` undoes the completed steps as the failure would have without the hold. Without `nodeId` the order\'s one held step. Recorded as the caller.',
      input: z.strictObject({
        orderId,
        nodeId: z.string().min(1).max(100).optional(),
        action: z.enum(['retry', 'rollback']),
        note: z.string().max(COMMAND_LIMITS.note).optional(),
      }),
      output: z.object({ ok: z.literal(true), nodeId: z.string() }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', action: 'retry', note: 'The gateway is back' },
      summarize: (o) => `Resolved the hold at ${o.nodeId}.`,
      // Without nodeId, the order's one held step (an orders query; none is a conflict).
      mapIn: async (input) => ({ id: input.orderId, nodeId: input.nodeId ?? (await soleHoldNode(deps.db, input.orderId)), action: input.action, note: input.note }),
      mapOut: (ok, resolved) => ({ ok: ok.ok, nodeId: resolved.nodeId }),
    }),
    agentTool(orders.cancelOrder, {
      name: 'cancel_order',
      summary: 'Cancel an order and undo its work (no refund)',
      description: 'Stops the run and undoes completed steps in reverse; captured money is not refunded. Refused when the order already finished.',
      input: z.strictObject({ orderId, reason: z.string().min(1).max(COMMAND_LIMITS.reason).optional() }),
      output: z.object({ ok: z.literal(true) }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', reason: 'Customer asked to cancel' },
      summarize: () => 'The order is cancelled and its work undone.',
      mapIn: (input, caller) => ({ id: input.orderId, reason: input.reason ?? `${AGENT_CANCEL_REASON} (${caller.actor})` }),
      mapOut: (ok) => ok,
    }),
    agentTool(orders.startReturn, {
      name: 'start_return',
      summary: 'Start a return: the buyer sends units of an order back',
      description:
        "Starts a return of the order (contract 18), a run of its own that waits up to 30 days for `return.received` (deliver it to the returnId), then refunds the returned lines' share of the order's total through the order's payment and restocks the units. `sellerId` only when the SKU is on lines of several sellers. Refused when the order is not paid yet or its return window closed (marketplace: payouts scheduled), and for more units than are left.",
      input: z.strictObject({ orderId, ...returnBodySchema.shape }),
      output: z.object({ returnId: z.string(), orderId: z.string() }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', lines: [{ sku: 'PAN-CAST-10', qty: 1 }], reason: 'Arrived dented' },
      summarize: (o) => `Return ${o.returnId} of order ${o.orderId} started; it waits for return.received.`,
      mapIn: (input) => ({ id: input.orderId, lines: input.lines, reason: input.reason }),
      mapOut: (started) => ({ returnId: started.returnId, orderId: started.orderId }),
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    agentOrderTools: ReturnType<typeof agentOrderTools>;
  }
}

// Agents' order tools (contract section 11): place, find, read, what needs attention, decide, deliver, cancel.
import { z } from 'zod';
import { defineOperation, type AnyOperation } from '../operation.js';
import { startOrderBodySchema, orderChannelSchema, orderModelSchema } from '../../domain/order-input-schema.js';
import { conflict, notFound } from '../../domain/errors.js';
import { startOrder } from '../../orders/start-order.js';
import { AGENT_ORDERS_SCOPE, fingerprint, IDEMPOTENCY_KEY_MAX } from '../../orders/idempotency.js';
import { readOrderView } from '../../orders/order-view.js';
import { orderBrief } from '../../orders/order-brief.js';
import { findOrders } from '../../orders/order-find.js';
import { needsAttention } from '../../orders/attention.js';
import { openWaits } from '../../engine/runtime/waits.js';
import { cancelOrder, decideOrderApproval, deliverOrderEvent } from '../../orders/order-commands.js';
import { declaredPayloadsText } from '../../nodes/event-payloads.js';
import { COMMAND_LIMITS, eventPayloadSchema } from '../../orders/command-schemas.js';
import { ORDER_STATUSES, liveNodeSchema, liveWaitSchema, orderListRowSchema, orderSummarySchema, timelineEntrySchema } from '../../orders/order-schemas.js';
import type { OrderOperationDeps } from './order-operations.js';

/** Orders started over an agent transport name their cancel reason after it; REST has its own default. */
export const AGENT_CANCEL_REASON = 'Cancelled by an agent';

const orderId = z.string().min(1).max(100).describe('The order id (ord_…)');
const status = z.enum(ORDER_STATUSES);

const waitSchema = liveWaitSchema.extend({
  label: z.string(),
  leadsTo: z.record(z.string(), z.string()).describe('branch -> the label of the step it leads to'),
});

export function agentOrderTools(deps: OrderOperationDeps): AnyOperation[] {
  const { engine, db } = deps;
  return [
    defineOperation({
      name: 'place_order',
      summary: 'Start an order on a published flow',
      description: 'Starts an order with the same body as POST /api/v1/orders and answers its id and status once its first slice ran (it may already wait for an approval or an event).',
      feature: 'orders',
      audience: 'agents',
      role: 'operator',
      effect: 'write',
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
      run: async (caller, input) => {
        const { idempotencyKey, ...body } = input;
        // The key's claim is part of the start transaction: an order is started at most once per key, crash or not.
        const idempotency = idempotencyKey
          ? { scope: AGENT_ORDERS_SCOPE, key: idempotencyKey, fingerprint: fingerprint({ flowId: body.flowId, version: body.version ?? null, input: body.input, vars: body.vars ?? null }) }
          : null;
        const { orderId: id } = await startOrder(deps, body, { startedBy: caller.actor, idempotency });
        const { rows } = await db.query<{ status: z.infer<typeof status> }>('SELECT status FROM orders WHERE id = $1', [id]);
        return { orderId: id, status: rows[0].status };
      },
    }),
    defineOperation({
      name: 'find_orders',
      summary: 'Search orders: count and USD total of every match, with the newest rows',
      description: 'Filters by text, status, model, channel, total in USD (each order converted at its own rate) and creation time (epoch ms, inclusive). `count` and `totalUsd` cover every match; `orders` holds up to `limit` of them, newest first.',
      feature: 'orders',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({
        q: z.string().max(200).optional(),
        status: status.optional(),
        model: orderModelSchema.optional(),
        channel: orderChannelSchema.optional(),
        minTotalUsd: z.number().min(0).optional(),
        maxTotalUsd: z.number().min(0).optional(),
        createdAfter: z.number().int().min(0).optional(),
        createdBefore: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(200).default(20),
      }),
      output: z.object({ count: z.number().int(), totalUsd: z.number(), orders: z.array(orderListRowSchema) }),
      example: { status: 'waiting', model: 'marketplace', createdAfter: 1_764_547_200_000, limit: 10 },
      summarize: (o) => `${o.count} order${o.count === 1 ? '' : 's'} match, ${o.totalUsd.toFixed(2)} USD in all; ${o.orders.length} shown, newest first.`,
      run: async (_caller, input) => findOrders(db, deps.searchMode(), input),
    }),
    defineOperation({
      name: 'get_order',
      summary: 'One order: status, waits and where each answer leads, steps run, recent activity',
      description: 'The order summary, its open waits with `leadsTo` (each branch and the step it leads to), the steps that ran with their status and summary, and the latest 20 timeline entries.',
      feature: 'orders',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({ orderId }),
      output: z.object({
        orderId: z.string(),
        status,
        reason: z.string().nullable(),
        order: orderSummarySchema,
        waits: z.array(waitSchema),
        steps: z.array(
          z.object({
            nodeId: z.string(),
            label: z.string(),
            type: liveNodeSchema.shape.type,
            status: z.string(),
            runs: z.number().int(),
            summary: z.string().nullable(),
            error: z.string().nullable(),
          }),
        ),
        activity: z.array(timelineEntrySchema),
      }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      summarize: (o) =>
        `Order ${o.orderId} is ${o.status.replace('_', ' ')}${o.reason ? ` (${o.reason})` : ''}` +
        (o.waits.length ? `; it waits for ${o.waits.map((w) => (w.kind === 'approval' ? `approval at ${w.label}` : `event ${w.event}`)).join(', ')}.` : '.'),
      run: async (_caller, input) => orderBrief(await readOrderView(db, engine, input.orderId)),
    }),
    defineOperation({
      name: 'needs_attention',
      summary: 'What needs attention: open approvals, recent failures, orders stuck on an event',
      description: 'Open approvals oldest first; orders failed or rolled back in the last 3 days, newest first; orders waiting on a business event for over a day, longest first. Each list holds at most 100; `counts` gives the totals.',
      feature: 'orders',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({}),
      output: z.object({
        approvals: z.array(
          z.object({
            orderId: z.string(),
            nodeId: z.string(),
            title: z.string().nullable(),
            assignee: z.string().nullable(),
            amount: z.number().nullable(),
            currency: z.string(),
            deadline: z.number().nullable(),
            since: z.number(),
            orderTitle: z.string().nullable(),
          }),
        ),
        failed: z.array(orderListRowSchema),
        waiting: z.array(orderListRowSchema.extend({ event: z.string().nullable(), since: z.number() })),
        counts: z.object({ approvals: z.number().int(), failed: z.number().int(), waiting: z.number().int() }),
      }),
      summarize: (o) =>
        `${o.counts.approvals} approval${o.counts.approvals === 1 ? '' : 's'} open, ${o.counts.failed} order${o.counts.failed === 1 ? '' : 's'} failed or rolled back in the last 3 days, ${o.counts.waiting} waiting over a day for an event.`,
      run: async () => needsAttention(db, deps.clock.now()),
    }),
    defineOperation({
      name: 'decide_approval',
      summary: 'Approve or reject a waiting approval',
      description: 'Decides the approval waiting at `nodeId`; without `nodeId` the order must have exactly one open approval. Recorded as the caller.',
      feature: 'orders',
      audience: 'agents',
      role: 'approver',
      effect: 'write',
      input: z.strictObject({
        orderId,
        nodeId: z.string().min(1).max(100).optional(),
        decision: z.enum(['approved', 'rejected']),
        note: z.string().max(COMMAND_LIMITS.note).optional(),
      }),
      output: z.object({ ok: z.literal(true), nodeId: z.string() }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', decision: 'approved', note: 'Known customer' },
      summarize: (o) => `Decided the approval at ${o.nodeId}.`,
      run: async (caller, input) => {
        const nodeId = input.nodeId ?? (await soleApproval(deps, input.orderId));
        await decideOrderApproval(engine, caller, input.orderId, nodeId, { decision: input.decision, note: input.note });
        return { ok: true as const, nodeId };
      },
    }),
    defineOperation({
      name: 'deliver_event',
      summary: 'Deliver a business event to the order',
      description: `Resumes the step waiting for \`event\` with \`payload\`; \`delivered: false\` (with \`waitingFor\`) when nothing waits for it. ${declaredPayloadsText()}`.trim(),
      feature: 'orders',
      audience: 'agents',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ orderId, event: z.string().min(1).max(COMMAND_LIMITS.event), payload: eventPayloadSchema.optional() }),
      output: z.object({ delivered: z.boolean(), nodeId: z.string().optional(), waitingFor: z.array(z.string()).optional() }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', event: 'payment.confirmed' },
      summarize: (o) =>
        o.delivered ? `Delivered to ${o.nodeId}.` : `Nothing waits for that event${o.waitingFor?.length ? `; the order waits for ${o.waitingFor.join(', ')}` : ''}.`,
      run: async (_caller, input) => deliverOrderEvent(engine, input.orderId, input.event, input.payload),
    }),
    defineOperation({
      name: 'cancel_order',
      summary: 'Cancel an order and undo its work (no refund)',
      description: 'Stops the run and undoes completed steps in reverse; captured money is not refunded. Refused when the order already finished.',
      feature: 'orders',
      audience: 'agents',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ orderId, reason: z.string().min(1).max(COMMAND_LIMITS.reason).optional() }),
      output: z.object({ ok: z.literal(true) }),
      example: { orderId: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', reason: 'Customer asked to cancel' },
      summarize: () => 'The order is cancelled and its work undone.',
      run: async (caller, input) => {
        await cancelOrder(engine, input.orderId, input.reason ?? `${AGENT_CANCEL_REASON} (${caller.actor})`);
        return { ok: true as const };
      },
    }),
  ];
}

/** The node of the order's one open approval; none or several is a conflict naming what to do. */
async function soleApproval(deps: OrderOperationDeps, id: string): Promise<string> {
  const { rows } = await deps.db.query('SELECT 1 FROM orders WHERE id = $1', [id]);
  if (rows.length === 0) throw notFound('Order');
  const approvals = (await openWaits(deps.db, id)).filter((w) => w.kind === 'approval');
  if (approvals.length === 1) return approvals[0].nodeId;
  if (approvals.length === 0) throw conflict('The order is not waiting for an approval');
  throw conflict(`The order waits for ${approvals.length} approvals (${approvals.map((w) => w.nodeId).join(', ')}): give nodeId`);
}

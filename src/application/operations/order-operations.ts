// Orders: start, list, read, deliver an event, decide an approval, resolve a held step, cancel, restart (spec "Endpoints", contract 11, 16).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { startOrderBodySchema } from '../../domain/order-input-schema.js';
import { orderFilterQueryShape, withFilterRules } from '../../orders/order-filter-schema.js';
import { API_ORDERS_SCOPE, API_RETURNS_SCOPE, fingerprint, IDEMPOTENCY_KEY_MAX, readIdempotencyKey } from '../../orders/idempotency.js';
import { startReturn } from '../../orders/start-return.js';
import { startOrder, type OrderServiceDeps } from '../../orders/start-order.js';
import { restartOrder } from '../../orders/restart-order.js';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, listOrders } from '../../orders/order-list.js';
import type { SearchMode } from '../../orders/order-search.js';
import { readOrderView } from '../../orders/order-view.js';
import { cancelOrder, decideOrderApproval, deliverOrderEvent, resolveOrderHold } from '../../orders/order-commands.js';
import { API_CANCEL_REASON, approvalBodySchema, cancelBodySchema, eventBodySchema, holdBodySchema, returnBodySchema } from '../../orders/command-schemas.js';
import {
  deliverResultSchema,
  okSchema,
  orderListSchema,
  orderLiveStateSchema,
  startedReturnSchema,
  startedSchema,
} from '../../orders/order-schemas.js';

export interface OrderOperationDeps extends OrderServiceDeps {
  /** Signs list cursors. */
  cursorKey: Buffer;
  /** How `q` is matched on this database (read once at start). */
  searchMode: () => SearchMode;
}

const orderId = z.string().min(1).max(100).describe('The order id (ord_…)');
const idempotencyKey = z
  .string()
  .optional()
  .describe(`At most ${IDEMPOTENCY_KEY_MAX} characters. A repeat with the same input answers the first order (replayed: true); with another input it is refused`);

const startInput = z.strictObject({ ...startOrderBodySchema.shape, idempotencyKey });
const listInput = z.object({
  ...orderFilterQueryShape,
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).optional().describe(`1 to ${LIST_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}`),
  cursor: z.string().max(1000).optional().describe('nextCursor of the previous page'),
}).superRefine(withFilterRules);

/** The order operations by name (the agents' order tools adapt some of them). */
export function orderOperations(deps: OrderOperationDeps) {
  const { engine } = deps;
  return {
    startOrder: defineOperation({
      name: 'startOrder',
      summary: 'Start an order on a published flow',
      description:
        'Records the order and runs its flow until the first wait or the end. The flow must have a published version (409 otherwise); `version` pins one. With an idempotency key a repeat of the same input answers the first order with `replayed: true`, and the same key with another input is refused (422).',
      feature: 'orders',
      role: 'operator',
      effect: 'write',
      input: startInput,
      output: startedSchema,
      example: { flowId: 'tpl-storefront-order', input: { model: 'b2c', title: 'Mug for Ada', currency: 'USD', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } },
      run: async (caller, input, call) => {
        const { idempotencyKey: rawKey, ...body } = input;
        const key = readIdempotencyKey(rawKey);
        // Agents' place_order keeps its keys in a space of its own (call.idempotencyScope); REST's are api.orders.
        const idempotency = key
          ? { scope: call.idempotencyScope ?? API_ORDERS_SCOPE, key, fingerprint: fingerprint({ flowId: body.flowId, version: body.version ?? null, input: body.input, vars: body.vars ?? null }) }
          : null;
        const outcome = await startOrder(deps, body, { startedBy: caller.actor, idempotency });
        return outcome.replayed ? { orderId: outcome.orderId, replayed: true as const } : { orderId: outcome.orderId };
      },
    }),
    listOrders: defineOperation({
      name: 'listOrders',
      summary: 'List orders newest first, with filters and an opaque cursor',
      description:
        'One page of order list rows, newest first. Filter by model, channel, status, a search text, flow (and version), the node where the order is parked, a seller or SKU of its lines and creation time (contract 16); `nextCursor` (null on the last page) fetches the next page with the same filters.',
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: listInput,
      output: orderListSchema,
      example: { status: 'waiting', limit: 20 },
      run: async (_caller, input) => listOrders(deps.db, deps.cursorKey, deps.searchMode(), input),
    }),
    getOrder: defineOperation({
      name: 'getOrder',
      summary: 'Read the live state of an order',
      description: 'The order, its flow graph with every node and edge status, open waits (approvals and events), vars, the timeline and links to its documents.',
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: orderId }),
      output: orderLiveStateSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => readOrderView(deps.db, engine, input.id),
    }),
    deliverEvent: defineOperation({
      name: 'deliverEvent',
      summary: 'Deliver a business event to the node waiting for it',
      description: 'Resumes the node that waits for `event` with `payload`. When no node waits for it, nothing changes and the answer is `{ delivered: false, waitingFor }` naming the events the order waits for now.',
      feature: 'orders',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ id: orderId, ...eventBodySchema.shape }),
      output: deliverResultSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', event: 'payment.confirmed', payload: { reference: 'PAY-1009' } },
      run: async (_caller, input) => deliverOrderEvent(engine, input.id, input.event, input.payload),
    }),
    decideApproval: defineOperation({
      name: 'decideApproval',
      summary: 'Approve or reject the approval waiting at a node',
      description: 'Decides the open approval at `nodeId`. People and API tokens decide as themselves; only the workspace password may name `by`. 409 when that node is not waiting for an approval.',
      feature: 'orders',
      role: 'approver',
      effect: 'write',
      input: z.strictObject({ id: orderId, nodeId: z.string().min(1).max(100), ...approvalBodySchema.shape }),
      output: okSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', nodeId: 'review', decision: 'approved', note: 'Known customer' },
      run: async (caller, input) => {
        const { id, nodeId, ...decision } = input;
        await decideOrderApproval(engine, caller, id, nodeId, decision);
        return { ok: true as const };
      },
    }),
    resolveHold: defineOperation({
      name: 'resolveHold',
      summary: 'Retry or roll back a held step',
      description:
        'For a step held after a failure (`onFailure: "hold"`, contract 16): `retry` continues the same run of the step (its attempts keep counting; an `http.call` keeps its Idempotency-Key), `rollback` applies the rules the step would have had without the hold (its failure branch, else the completed steps undone in reverse). Recorded as the caller on the hold and in the timeline. 409 when that node is not held.',
      feature: 'orders',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ id: orderId, nodeId: z.string().min(1).max(100), ...holdBodySchema.shape }),
      output: okSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', nodeId: 'charge', action: 'retry', note: 'The gateway is back' },
      run: async (caller, input) => {
        const { id, nodeId, ...body } = input;
        await resolveOrderHold(engine, caller, id, nodeId, body);
        return { ok: true as const };
      },
    }),
    cancelOrder: defineOperation({
      name: 'cancelOrder',
      summary: 'Cancel an unfinished order and undo its work (no refund)',
      description: 'Stops the run and undoes completed steps in reverse; money captured is not refunded (a refund is its own flow). 409 when the order already finished.',
      feature: 'orders',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ id: orderId, ...cancelBodySchema.shape }),
      output: okSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', reason: 'Customer asked to cancel' },
      run: async (_caller, input) => {
        await cancelOrder(engine, input.id, input.reason ?? API_CANCEL_REASON);
        return { ok: true as const };
      },
    }),
    startReturn: defineOperation({
      name: 'startReturn',
      summary: 'Start a return of units of an order',
      description:
        "Starts a return (contract 18): a run of the flow tpl-return with an order id of its own, linked to the order by `returnOf`. It waits up to 30 days for `return.received`, then refunds the returned lines' share of the order's total (tax included) through the order's payment and restocks the units. Allowed once the order's payment was captured or charged and while its return window is open (marketplace: before the payouts are scheduled; other flows: returnWindowDays after capture), else 409; each qty at most what is left of that SKU and seller, else 400 with issues. With an idempotency key a repeat answers the first return with `replayed: true`.",
      feature: 'orders',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ id: orderId, ...returnBodySchema.shape, idempotencyKey }),
      output: startedReturnSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z', lines: [{ sku: 'PAN-CAST-10', qty: 1 }], reason: 'Arrived dented' },
      run: async (caller, input) => {
        const { idempotencyKey: rawKey, id, ...body } = input;
        const key = readIdempotencyKey(rawKey);
        const idempotency = key ? { scope: API_RETURNS_SCOPE, key, fingerprint: fingerprint({ returnOf: id, lines: body.lines, reason: body.reason ?? null }) } : null;
        const outcome = await startReturn(deps, { orderId: id, ...body }, { startedBy: caller.actor, idempotency });
        return { returnId: outcome.returnId, orderId: outcome.orderId, ...(outcome.replayed ? { replayed: true as const } : {}) };
      },
    }),
    restartOrder: defineOperation({
      name: 'restartOrder',
      summary: 'Start a new order with the same input on the same flow version',
      description: 'For an order that ended failed, rolled back, cancelled or declined (409 otherwise): a new order with the same input and start vars, linked by `restartedFrom`. With an idempotency key a repeat answers the same new order.',
      feature: 'orders',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({ id: orderId, idempotencyKey }),
      output: startedSchema,
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (caller, input) => {
        const key = readIdempotencyKey(input.idempotencyKey);
        const idempotency = key ? { scope: `${API_ORDERS_SCOPE}.restart`, key, fingerprint: fingerprint({ restart: input.id }) } : null;
        const outcome = await restartOrder(deps, input.id, caller.actor, idempotency);
        return outcome.replayed ? { orderId: outcome.orderId, replayed: true as const } : { orderId: outcome.orderId };
      },
    }),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    orders: ReturnType<typeof orderOperations>;
  }
}

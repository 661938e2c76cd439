// REST: /api/v1/orders — start (idempotent), list, read, events, approvals, cancel, restart (spec "Endpoints").
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../route.js';
import type { Context } from 'koa';
import { orderChannelSchema, orderModelSchema, startOrderBodySchema } from '../../domain/order-input-schema.js';
import { API_ORDERS_SCOPE, fingerprint, readIdempotencyKey, type IdempotencyClaim } from '../../app/orders/idempotency.js';
import { startOrder, type OrderServiceDeps } from '../../app/orders/start-order.js';
import { restartOrder } from '../../app/orders/restart-order.js';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, listOrders } from '../../app/orders/order-list.js';
import type { SearchMode } from '../../app/orders/order-search.js';
import { readOrderView } from '../../app/orders/order-view.js';
import { cancelOrder, decideOrderApproval, deliverOrderEvent } from '../../app/orders/order-commands.js';
import { API_CANCEL_REASON, approvalBodySchema, cancelBodySchema, eventBodySchema } from '../../app/orders/command-schemas.js';
import {
  deliverResultSchema,
  okSchema,
  orderIdParams,
  orderListSchema,
  orderLiveStateSchema,
  orderNodeParams,
  ORDER_STATUSES,
  replayedSchema,
  startedSchema,
} from './order-schemas.js';

export interface OrderRouteDeps extends OrderServiceDeps {
  /** Signs list cursors. */
  cursorKey: Buffer;
  /** How `q` is matched on this database (read once at start). */
  searchMode: () => SearchMode;
}

const idempotencyHeader = {
  name: 'Idempotency-Key',
  required: false,
  description: 'At most 255 characters. A repeat with the same body answers 200 with the first order; with another body 422.',
};

/** The raw header: absent is undefined (an empty value is present and refused). */
function idempotencyHeaderValue(ctx: Context): string | undefined {
  const raw = ctx.headers['idempotency-key'];
  return Array.isArray(raw) ? raw.join(',') : raw;
}

const listQuery = z.object({
  model: orderModelSchema.optional(),
  channel: orderChannelSchema.optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  q: z.string().max(200).optional().describe('Matches order id, title, customer id, contact email or external id, case-insensitively: anywhere in them when q has three letters or digits in a row, else at their start'),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).optional().describe(`1 to ${LIST_LIMIT_MAX}, default ${LIST_LIMIT_DEFAULT}`),
  cursor: z.string().max(1000).optional().describe('nextCursor of the previous page'),
});

export function orderRoutes(deps: OrderRouteDeps): RouteDef[] {
  const { engine } = deps;
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/orders',
      summary: 'Start an order on a published flow (idempotent with Idempotency-Key)',
      tag: 'orders',
      access: 'operator',
      body: startOrderBodySchema,
      headers: [idempotencyHeader],
      responses: {
        201: { description: 'Started', schema: startedSchema },
        200: { description: 'A repeat of an Idempotency-Key: the first order', schema: replayedSchema },
        400: { description: 'Invalid body, unsupported currency or Idempotency-Key over 255 characters' },
        409: { description: 'The flow has no published version (or not the one asked for)' },
        422: { description: 'The Idempotency-Key was used with a different body' },
      },
      handler: async ({ body, principal, ctx }) => {
        const key = readIdempotencyKey(idempotencyHeaderValue(ctx));
        const idempotency: IdempotencyClaim | null = key
          ? {
              scope: API_ORDERS_SCOPE,
              key,
              fingerprint: fingerprint({ flowId: body.flowId, version: body.version ?? null, input: body.input, vars: body.vars ?? null }),
            }
          : null;
        const outcome = await startOrder(deps, body, { startedBy: principal!.actor, idempotency });
        return outcome.replayed
          ? { status: 200, body: { orderId: outcome.orderId, replayed: true } }
          : { status: 201, body: { orderId: outcome.orderId } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/orders',
      summary: 'List orders newest first, with filters and an opaque cursor',
      tag: 'orders',
      access: 'viewer',
      query: listQuery,
      responses: {
        200: { description: 'One page; nextCursor is null on the last page', schema: orderListSchema },
        400: { description: 'Invalid filter, limit or a cursor not issued by the API' },
      },
      handler: async ({ query }) => ({ body: await listOrders(deps.db, deps.cursorKey, deps.searchMode(), query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/orders/:id',
      summary: 'The order live state',
      tag: 'orders',
      access: 'viewer',
      params: orderIdParams,
      responses: { 200: { description: 'Live state', schema: orderLiveStateSchema }, 404: { description: 'Unknown order' } },
      handler: async ({ params }) => ({ body: await readOrderView(deps.db, engine, params.id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/orders/:id/events',
      summary: 'Deliver a business event to the node waiting for it',
      tag: 'orders',
      access: 'operator',
      params: orderIdParams,
      body: eventBodySchema,
      responses: {
        200: { description: '{ delivered: true, nodeId } or { delivered: false, waitingFor } when no node waits for it (waitingFor: the events it waits for now)', schema: deliverResultSchema },
        400: { description: 'event not 1 to 100 characters, or payload over 32 KiB of JSON' },
        404: { description: 'Unknown order' },
      },
      handler: async ({ params, body }) => ({ body: await deliverOrderEvent(engine, params.id, body.event, body.payload) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/orders/:id/approvals/:nodeId',
      summary: 'Approve or reject the approval waiting at a node',
      tag: 'orders',
      access: 'approver',
      params: orderNodeParams,
      body: approvalBodySchema,
      responses: {
        200: { description: 'Decided', schema: okSchema },
        404: { description: 'Unknown order' },
        409: { description: 'That node is not waiting for an approval' },
      },
      handler: async ({ params, body, principal }) => {
        await decideOrderApproval(engine, principal!, params.id, params.nodeId, body);
        return { body: { ok: true } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/orders/:id/cancel',
      summary: 'Cancel an unfinished order and undo its work (no refund)',
      tag: 'orders',
      access: 'operator',
      params: orderIdParams,
      body: cancelBodySchema,
      responses: {
        200: { description: 'Cancelled', schema: okSchema },
        404: { description: 'Unknown order' },
        409: { description: 'The order already finished' },
      },
      handler: async ({ params, body }) => {
        await cancelOrder(engine, params.id, body.reason ?? API_CANCEL_REASON);
        return { body: { ok: true } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/orders/:id/restart',
      summary: 'Start a new order with the same input on the same flow version (linked by restartedFrom)',
      tag: 'orders',
      access: 'operator',
      params: orderIdParams,
      headers: [{ ...idempotencyHeader, description: 'At most 255 characters; a repeat answers 200 with the same new order.' }],
      responses: {
        201: { description: 'The new order', schema: startedSchema },
        200: { description: 'A repeat of an Idempotency-Key', schema: replayedSchema },
        404: { description: 'Unknown order' },
        409: { description: 'The order did not end failed, rolled back, cancelled or declined' },
      },
      handler: async ({ params, principal, ctx }) => {
        const key = readIdempotencyKey(idempotencyHeaderValue(ctx));
        const idempotency = key ? { scope: `${API_ORDERS_SCOPE}.restart`, key, fingerprint: fingerprint({ restart: params.id }) } : null;
        const outcome = await restartOrder(deps, params.id, principal!.actor, idempotency);
        return outcome.replayed
          ? { status: 200, body: { orderId: outcome.orderId, replayed: true } }
          : { status: 201, body: { orderId: outcome.orderId } };
      },
    }),
  ];
}

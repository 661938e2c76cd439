// Restart (contract section 4): a new order with the same input on the same flow version, linked by restartedFrom.
import { readOrder } from './order-row.js';
import { conflict, notFound } from '../domain/errors.js';
import { orderInputSchema, type OrderInput } from '../domain/order-input-schema.js';
import type { IdempotencyClaim } from './idempotency.js';
import { startOrder, type OrderServiceDeps, type StartOrderOutcome } from './start-order.js';

/** The statuses an order may be restarted from: it ended without completing. */
export const RESTARTABLE_STATUSES = ['failed', 'rolled_back', 'cancelled', 'declined'] as const;

export async function restartOrder(
  deps: OrderServiceDeps,
  orderId: string,
  startedBy: string,
  idempotency: IdempotencyClaim | null = null,
): Promise<StartOrderOutcome> {
  const order = await readOrder(deps.db, orderId);
  if (!order) throw notFound('Order');
  // A return's lines and refund were fixed against its order when it started: a new one starts from that order.
  if (order.returnOf !== null) throw conflict(`${order.id} is a return: start a new return of order ${order.returnOf} instead`);
  if (!(RESTARTABLE_STATUSES as readonly string[]).includes(order.status))
    throw conflict(`Only an order that ended failed, rolled back, cancelled or declined can be restarted (this one is ${order.status.replace('_', ' ')})`);
  const { rows } = await deps.db.query<{ start_vars: Record<string, unknown> }>('SELECT start_vars FROM order_origins WHERE order_id = $1', [orderId]);
  // The stored input was validated at the first start; channel routes may have added keys the REST schema does not know.
  const parsed = orderInputSchema.safeParse(order.input);
  const input = parsed.success ? parsed.data : (order.input as OrderInput);
  return startOrder(
    deps,
    { flowId: order.flowId, version: order.flowVersion, input, vars: rows[0]?.start_vars ?? {} },
    { startedBy, idempotency, restartedFrom: order.id, copyDocumentsFrom: order.id },
  );
}

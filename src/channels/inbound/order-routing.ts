// Which flow an inbound order runs on (spec "Signed inbound orders route", routing order).
import type { OrderModel } from '../../domain/order-input-schema.js';

/** Built-in routes; the workspace `orderRoutes` override them key by key. */
export const BUILTIN_ORDER_ROUTES: Readonly<Record<string, string>> = Object.freeze({
  'b2c:pos': 'tpl-pos-sale',
  'd2c:pos': 'tpl-pos-sale',
});

/** Step 4: the flow of each model when no route names one. */
export const MODEL_DEFAULT_FLOWS: Readonly<Record<OrderModel, string>> = Object.freeze({
  b2b: 'tpl-b2b-order',
  b2c: 'tpl-storefront-order',
  d2c: 'tpl-omnichannel-order',
  marketplace: 'tpl-marketplace-order',
  subscription: 'tpl-subscription',
  procurement: 'tpl-purchase-request',
  replenishment: 'tpl-reorder',
});

/** How the flow was chosen: the body, a `model:channel` route, a `model:*` route, or the model default. */
export type RouteSource = 'body' | 'channel_route' | 'model_route' | 'model_default';

export interface RoutedFlow {
  flowId: string;
  by: RouteSource;
}

/**
 * (1) the body's flowId; (2) `<model>:<channel>` in the workspace routes, else the built-in
 * routes; (3) `<model>:*`, likewise; (4) the model default. A workspace `model:*` therefore
 * does not beat a built-in `model:channel` (step 2 comes first), but a workspace key equal
 * to a built-in key replaces it.
 */
export function routeOrder(
  order: { flowId?: string; model: OrderModel; channel: string },
  workspaceRoutes: Readonly<Record<string, string>>,
): RoutedFlow {
  if (order.flowId !== undefined) return { flowId: order.flowId, by: 'body' };
  const lookup = (key: string): string | undefined =>
    (Object.hasOwn(workspaceRoutes, key) ? workspaceRoutes[key] : undefined) ??
    (Object.hasOwn(BUILTIN_ORDER_ROUTES, key) ? BUILTIN_ORDER_ROUTES[key] : undefined);
  const byChannel = lookup(`${order.model}:${order.channel}`);
  if (byChannel !== undefined) return { flowId: byChannel, by: 'channel_route' };
  const byModel = lookup(`${order.model}:*`);
  if (byModel !== undefined) return { flowId: byModel, by: 'model_route' };
  return { flowId: MODEL_DEFAULT_FLOWS[order.model], by: 'model_default' };
}

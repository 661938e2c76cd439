// Commerce test helpers: a harness with the built-in flows published, order starts with lines, bookkeeping reads.
import { startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';
import { testEffect, testEffectPorts } from '../../support/test-node-types.js';
import type { NewOrder, NewOrderLine } from '../../../src/orders/new-order.js';

export const DAY = 86_400_000;

export interface CommerceHarness extends EngineHarness {
  /** The published version of a flow (built-in or test). */
  version(flowId: string): Promise<number>;
  /** Starts an order on the latest published version of `flowId`. */
  order(flowId: string, lines: Partial<NewOrderLine>[], extra?: Partial<NewOrder>): Promise<string>;
  rows<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  /** seller orders of an order: sellerId -> { status, reason } */
  sellerOrders(orderId: string): Promise<Record<string, { status: string; reason: string | null; subtotal: number }>>;
  stock(sku: string, locationId: string): Promise<{ onHand: number; reserved: number }>;
  authorizations(orderId: string): Promise<{ status: string; amount: number; captured: number; released: number }[]>;
  outbox(orderId: string): Promise<string[]>;
}

export async function startCommerceHarness(): Promise<CommerceHarness> {
  const h = await startEngineHarness({ start: { engine: { nodeTypes: [testEffect], ports: testEffectPorts, builtinFlows: true } } });
  const db = h.t.service.ctx.db;
  const rows = async <T = any>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[];
  const version = async (flowId: string) => {
    const [row] = await rows<{ published_version: number }>('SELECT published_version FROM flows WHERE id = $1', [flowId]);
    if (!row?.published_version) throw new Error(`flow ${flowId} is not published`);
    return row.published_version;
  };
  return {
    ...h,
    version,
    rows,
    async order(flowId, lines, extra = {}) {
      const full: NewOrderLine[] = lines.map((l) => ({ sku: 'MUG-1', name: null, qty: 1, unitPriceMinor: null, sellerId: null, locationId: null, ...l }));
      return h.startOrder(flowId, await version(flowId), {
        model: 'marketplace',
        channel: 'marketplace',
        customerId: 'cust_1',
        contactEmail: 'buyer@example.com',
        subtotal: 0,
        tax: 0,
        total: 0,
        lines: full,
        ...extra,
      });
    },
    async sellerOrders(orderId) {
      const list = await rows('SELECT seller_id, status, reason, subtotal_minor FROM seller_orders WHERE order_id = $1', [orderId]);
      return Object.fromEntries(list.map((r) => [r.seller_id ?? 'first_party', { status: r.status, reason: r.reason, subtotal: Number(r.subtotal_minor) }]));
    },
    async stock(sku, locationId) {
      const [r] = await rows('SELECT on_hand, reserved FROM stock_levels WHERE sku = $1 AND location_id = $2', [sku, locationId]);
      return { onHand: r.on_hand, reserved: r.reserved };
    },
    async authorizations(orderId) {
      const list = await rows('SELECT * FROM payment_authorizations WHERE order_id = $1 ORDER BY created_at', [orderId]);
      return list.map((r) => ({ status: r.status, amount: Number(r.amount_minor), captured: Number(r.captured_minor), released: Number(r.released_minor) }));
    },
    async outbox(orderId) {
      return (await rows('SELECT event FROM outbox WHERE order_id = $1 ORDER BY created_at, id', [orderId])).map((r) => r.event);
    },
  };
}

// REST: GET /api/v1/sellers/:id/orders and GET /api/v1/orders/:id/payouts (viewer; contract section 4).
import { z } from 'zod';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../domain/errors.js';
import { fromMinor } from '../../domain/money.js';
import { payoutsOf } from '../../domain/payouts-repo.js';
import { sellerOrdersOfSeller } from '../../domain/seller-orders-repo.js';
import { defineRoute, type RouteDef } from '../route.js';

const idParam = z.object({ id: z.string().min(1).max(200) });

const sellerOrderSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  sellerId: z.string(),
  currency: z.string(),
  subtotal: z.number(),
  status: z.enum(['pending', 'accepted', 'rejected', 'cancelled']),
  reason: z.string().nullable(),
  lines: z.array(z.object({ lineNo: z.number(), sku: z.string(), name: z.string().nullable(), qty: z.number(), unitPrice: z.number() })),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const payoutSchema = z.object({
  id: z.string(),
  sellerId: z.string(),
  currency: z.string(),
  gross: z.number(),
  refunded: z.number(),
  commission: z.number(),
  commissionRate: z.number(),
  net: z.number(),
  status: z.enum(['scheduled', 'reversed', 'paid']),
  scheduledAt: z.number(),
  paidAt: z.number().nullable(),
  reversedAt: z.number().nullable(),
});

export function commerceRoutes(deps: { db: Queryable }): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/sellers/:id/orders',
      summary: "A seller's seller orders, newest first (at most 500)",
      tag: 'sellers',
      access: 'viewer',
      params: idParam,
      responses: {
        200: { description: 'Seller orders; amounts in the order currency', schema: z.object({ sellerOrders: z.array(sellerOrderSchema) }) },
        404: { description: 'Unknown seller' },
      },
      handler: async ({ params }) => {
        const seller = await deps.db.query('SELECT 1 FROM sellers WHERE id = $1', [params.id]);
        if (seller.rows.length === 0) throw notFound('Seller');
        const rows = await sellerOrdersOfSeller(deps.db, params.id);
        return {
          body: {
            sellerOrders: rows.map((s) => ({
              id: s.id,
              orderId: s.orderId,
              sellerId: s.sellerId!,
              currency: s.currency,
              subtotal: fromMinor(s.subtotalMinor, s.currency),
              status: s.status,
              reason: s.reason,
              lines: s.lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, name: l.name, qty: l.qty, unitPrice: fromMinor(l.unitPriceMinor, s.currency) })),
              createdAt: s.createdAt,
              updatedAt: s.updatedAt,
            })),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/orders/:id/payouts',
      summary: "An order's seller payouts",
      tag: 'orders',
      access: 'viewer',
      params: idParam,
      responses: {
        200: { description: 'Payouts; amounts in the order currency', schema: z.object({ payouts: z.array(payoutSchema) }) },
        404: { description: 'Unknown order' },
      },
      handler: async ({ params }) => {
        const order = await deps.db.query('SELECT 1 FROM orders WHERE id = $1', [params.id]);
        if (order.rows.length === 0) throw notFound('Order');
        const rows = await payoutsOf(deps.db, params.id);
        return {
          body: {
            payouts: rows.map((p) => ({
              id: p.id,
              sellerId: p.sellerId,
              currency: p.currency,
              gross: fromMinor(p.gross, p.currency),
              refunded: fromMinor(p.refunded, p.currency),
              commission: fromMinor(p.commission, p.currency),
              commissionRate: p.commissionRate,
              net: fromMinor(p.net, p.currency),
              status: p.status,
              scheduledAt: p.scheduledAt,
              paidAt: p.paidAt,
              reversedAt: p.reversedAt,
            })),
          },
        };
      },
    }),
  ];
}

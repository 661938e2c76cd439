// Marketplace reads: a seller's seller orders, an order's seller orders and payouts (viewer; contract section 4).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Queryable } from '../../db/db.js';
import { orderSellerOrdersView, payoutsView, sellerOrdersView } from '../../orders/seller-views.js';

const sellerOrderSchema = z
  .object({
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
  })
  .meta({ id: 'SellerOrder', description: "One seller's part of a marketplace order; amounts in the order currency" });

/** An order's seller order; the first-party part has no seller. */
const orderSellerOrderSchema = sellerOrderSchema.extend({ sellerId: z.string().nullable() }).meta({ id: 'OrderSellerOrder', description: "One seller's part of an order (sellerId null: first party); amounts in the order currency" });

/** A seller's payout for an order (with the order id), net of commission; amounts in the order currency. */
export const payoutSchema = z
  .object({
    id: z.string(),
    orderId: z.string(),
    sellerId: z.string(),
    currency: z.string(),
    gross: z.number(),
    refunded: z.number(),
    commission: z.number(),
    commissionRate: z.number(),
    net: z.number(),
    status: z.enum(['scheduled', 'paid', 'reversed']),
    scheduledAt: z.number(),
    paidAt: z.number().nullable(),
    reversedAt: z.number().nullable(),
  })
  .meta({ id: 'Payout', description: "A seller's payout for an order, net of commission; amounts in the order currency" });

export function marketplaceOperations(deps: { db: Queryable }) {
  return [
    defineOperation({
      name: 'listSellerOrders',
      summary: "A seller's seller orders",
      description: 'Newest first, at most 500, each with its lines and whether the seller accepted. 404 for an unknown seller.',
      feature: 'sellers',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: z.string().min(1).max(200).describe('The seller id') }),
      output: z.object({ sellerOrders: z.array(sellerOrderSchema) }),
      example: { id: 'sel_oak' },
      run: async (_caller, input) => ({ sellerOrders: await sellerOrdersView(deps.db, input.id) }),
    }),
    defineOperation({
      name: 'listOrderSellerOrders',
      summary: "An order's seller orders",
      description: "Each seller's part of the order (first party: sellerId null) with its lines and whether the seller accepted, in creation order. 404 for an unknown order.",
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: z.string().min(1).max(200).describe('The order id') }),
      output: z.object({ sellerOrders: z.array(orderSellerOrderSchema) }),
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => ({ sellerOrders: await orderSellerOrdersView(deps.db, input.id) }),
    }),
    defineOperation({
      name: 'listOrderPayouts',
      summary: "An order's seller payouts",
      description: 'Gross, refunded, commission and net per seller, with the payout status. 404 for an unknown order.',
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: z.string().min(1).max(200).describe('The order id') }),
      output: z.object({ payouts: z.array(payoutSchema) }),
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => ({ payouts: await payoutsView(deps.db, input.id) }),
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    marketplace: ReturnType<typeof marketplaceOperations>;
  }
}

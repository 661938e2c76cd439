// The back office as operations (the dashboard's /back-office and REST): sellers, products with stock, payouts, mark paid, stock review.
import { payoutSchema } from './marketplace-operations.js';
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../logging/logger.js';
import type { OrderRuntime } from '../../engine/runtime/order-runtime.js';
import { allSellers } from '../../commerce/sellers-repo.js';
import { findProducts } from '../../commerce/product-stock.js';
import { runStockReview } from '../../orders/stock-review.js';
import { listPayouts, markPayoutPaid, PAYOUTS_LISTED } from '../../orders/payout-ledger.js';

export interface BackOfficeDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  runtime: OrderRuntime;
}

const PAYOUT_STATUSES = ['scheduled', 'paid', 'reversed'] as const;

const sellerSchema = z
  .object({ id: z.string(), name: z.string(), commission: z.number().describe('Rate, 0 to 1'), autoAccept: z.boolean(), active: z.boolean(), updatedAt: z.number() })
  .meta({ id: 'Seller' });


const productStockSchema = z
  .object({ sku: z.string(), name: z.string(), sellerId: z.string().nullable(), stock: z.number().int(), reserved: z.number().int(), available: z.number().int(), reorderPoint: z.number().int() })
  .meta({ id: 'ProductStock' });

/** The back-office operations by name (the agents' catalogue tools adapt some of them). */
export function backOfficeOperations(deps: BackOfficeDeps) {
  return {
    listSellers: defineOperation({
      name: 'listSellers',
      summary: 'Sellers with commission, auto-accept and active',
      description: 'Every seller by id, at most 500.',
      feature: 'sellers',
      role: 'viewer',
      effect: 'read',
      input: z.object({}),
      output: z.object({ sellers: z.array(sellerSchema) }),
      run: async () => ({ sellers: await allSellers(deps.db) }),
    }),
    listProducts: defineOperation({
      name: 'listProducts',
      summary: 'Products with stock, reserved, available and reorder point',
      description:
        'Quantities summed over every location; `q` matches the SKU or name anywhere (case-insensitive), `sku` one SKU exactly; `belowReorderPoint=true` keeps products whose available stock is at or below a reorder point above zero. At most 500, by SKU.',
      feature: 'catalogue',
      role: 'viewer',
      effect: 'read',
      input: z.object({
        q: z.string().max(200).optional().describe('Part of a SKU or name'),
        sku: z.string().min(1).max(100).optional().describe('One SKU, exactly'),
        belowReorderPoint: z.stringbool().optional().describe('true: only products at or below their reorder point'),
      }),
      output: z.object({ products: z.array(productStockSchema) }),
      example: { q: 'mug' },
      run: async (_caller, input) => ({ products: await findProducts(deps.db, input) }),
    }),
    listPayouts: defineOperation({
      name: 'listPayouts',
      summary: "Every order's seller payouts, newest first",
      description: `Optionally of one status (scheduled, paid or reversed); at most ${PAYOUTS_LISTED}.`,
      feature: 'sellers',
      role: 'viewer',
      effect: 'read',
      input: z.object({ status: z.enum(PAYOUT_STATUSES).optional() }),
      output: z.object({ payouts: z.array(payoutSchema) }),
      example: { status: 'scheduled' },
      run: async (_caller, input) => ({ payouts: await listPayouts(deps.db, { status: input.status }) }),
    }),
    markPayoutPaid: defineOperation({
      name: 'markPayoutPaid',
      summary: 'Record that a scheduled payout was paid to the seller',
      description: 'Moves a scheduled payout to paid (the money is sent outside this service). 409 when it is already paid or was reversed; audited as payout.paid.',
      feature: 'sellers',
      role: 'operator',
      effect: 'write',
      input: z.object({ id: z.string().min(1).max(200).describe('The payout id') }),
      output: payoutSchema,
      example: { id: 'po_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: (caller, input, call) => markPayoutPaid(deps, caller, input.id, call.ip),
    }),
    runStockReview: defineOperation({
      name: 'runStockReview',
      summary: 'Run the daily stock review now',
      description:
        'Starts a reorder (flow tpl-reorder) for every first-party, non-digital SKU at or below its reorder point that has no open reorder, as the daily job does. `skipped` says why nothing started (tpl-reorder not published).',
      feature: 'catalogue',
      role: 'operator',
      effect: 'write',
      input: z.object({}),
      output: z.object({
        reorders: z.array(z.object({ sku: z.string(), orderId: z.string(), qty: z.number().int() })),
        alreadyOpen: z.array(z.string()).describe('Low SKUs that already have an open reorder'),
        skipped: z.string().nullable(),
      }),
      run: async () => {
        const r = await runStockReview(deps);
        return { reorders: r.started.map((s) => ({ sku: s.sku, orderId: s.orderId, qty: s.qty })), alreadyOpen: r.alreadyOpen, skipped: r.skipped };
      },
    }),
  };
}

declare module '../operation-types.js' {
  interface OperationModules {
    backOffice: ReturnType<typeof backOfficeOperations>;
  }
}

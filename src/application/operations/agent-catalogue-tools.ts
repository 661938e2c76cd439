// Agents' catalogue tools (contract section 11): products with their stock, and the stock review run on demand.
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../engine/clock.js';
import type { OrderRuntime } from '../../engine/runtime/order-runtime.js';
import { findProducts } from '../../commerce/product-stock.js';
import { runStockReview } from '../../orders/stock-review.js';

export interface CatalogueToolDeps {
  db: Db;
  clock: Clock;
  runtime: OrderRuntime;
}

export function agentCatalogueTools(deps: CatalogueToolDeps) {
  return [
    defineOperation({
      name: 'find_products',
      summary: 'Products with stock, reserved and available quantities and reorder points',
      description: 'Matches `q` anywhere in the SKU or name (case-insensitive) or exactly `sku`; `belowReorderPoint` keeps products whose available stock is at or below a reorder point above zero. At most 500, by SKU.',
      feature: 'catalogue',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({ q: z.string().max(200).optional(), sku: z.string().min(1).max(100).optional(), belowReorderPoint: z.boolean().optional() }),
      output: z.object({
        products: z.array(
          z.object({
            sku: z.string(),
            name: z.string(),
            sellerId: z.string().nullable(),
            stock: z.number().int(),
            reserved: z.number().int(),
            available: z.number().int(),
            reorderPoint: z.number().int(),
          }),
        ),
      }),
      example: { belowReorderPoint: true },
      summarize: (o) => `${o.products.length} product${o.products.length === 1 ? '' : 's'}.`,
      run: async (_caller, input) => ({ products: await findProducts(deps.db, input) }),
    }),
    defineOperation({
      name: 'run_stock_review',
      summary: 'Run the daily stock review now',
      description: 'Starts a reorder (flow tpl-reorder) for every first-party, non-digital SKU at or below its reorder point that has no open reorder. `reviewed` counts the SKUs found low; `reorders` lists the orders started. Nothing starts while tpl-reorder is not published.',
      feature: 'catalogue',
      audience: 'agents',
      role: 'operator',
      effect: 'write',
      input: z.strictObject({}),
      output: z.object({
        reviewed: z.number().int().describe('SKUs at or below their reorder point (started plus already on order)'),
        reorders: z.array(z.object({ sku: z.string(), orderId: z.string() })),
        alreadyOpen: z.array(z.string()).describe('Low SKUs that already have an open reorder'),
        skipped: z.string().nullable(),
      }),
      summarize: (o) => o.skipped ?? `${o.reviewed} SKU${o.reviewed === 1 ? '' : 's'} low; ${o.reorders.length} reorder${o.reorders.length === 1 ? '' : 's'} started.`,
      run: async () => {
        const result = await runStockReview(deps);
        return {
          reviewed: result.started.length + result.alreadyOpen.length,
          reorders: result.started.map((s) => ({ sku: s.sku, orderId: s.orderId })),
          alreadyOpen: result.alreadyOpen,
          skipped: result.skipped,
        };
      },
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    agentCatalogueTools: ReturnType<typeof agentCatalogueTools>;
  }
}

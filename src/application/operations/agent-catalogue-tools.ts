// Agents' catalogue tools (contract section 11) as adapters of the back-office operations REST binds: products with their stock, the stock review on demand.
import { z } from 'zod';
import { agentTool } from '../agent-tool.js';
import type { backOfficeOperations } from './back-office-operations.js';

export function agentCatalogueTools(backOffice: ReturnType<typeof backOfficeOperations>) {
  return [
    agentTool(backOffice.listProducts, {
      name: 'find_products',
      summary: 'Products with stock, reserved and available quantities and reorder points',
      description: 'Matches `q` anywhere in the SKU or name (case-insensitive) or exactly `sku`; `belowReorderPoint` keeps products whose available stock is at or below a reorder point above zero. At most 500, by SKU.',
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
      mapIn: (input) => input,
      mapOut: (found) => found,
    }),
    agentTool(backOffice.runStockReview, {
      name: 'run_stock_review',
      summary: 'Run the daily stock review now',
      description: 'Starts a reorder (flow tpl-reorder) for every first-party, non-digital SKU at or below its reorder point that has no open reorder. `reviewed` counts the SKUs found low; `reorders` lists the orders started. Nothing starts while tpl-reorder is not published.',
      input: z.strictObject({}),
      output: z.object({
        reviewed: z.number().int().describe('SKUs at or below their reorder point (started plus already on order)'),
        reorders: z.array(z.object({ sku: z.string(), orderId: z.string() })),
        alreadyOpen: z.array(z.string()).describe('Low SKUs that already have an open reorder'),
        skipped: z.string().nullable(),
      }),
      summarize: (o) => o.skipped ?? `${o.reviewed} SKU${o.reviewed === 1 ? '' : 's'} low; ${o.reorders.length} reorder${o.reorders.length === 1 ? '' : 's'} started.`,
      mapIn: () => ({}),
      mapOut: (review) => ({
        reviewed: review.reorders.length + review.alreadyOpen.length,
        reorders: review.reorders.map((r) => ({ sku: r.sku, orderId: r.orderId })),
        alreadyOpen: review.alreadyOpen,
        skipped: review.skipped,
      }),
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    agentCatalogueTools: ReturnType<typeof agentCatalogueTools>;
  }
}

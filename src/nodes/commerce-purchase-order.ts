// Node type `commerce.purchase_order`: issues a purchase order to the supplier for the order's lines.
import { z } from 'zod';
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { fulfillmentOf } from '../commerce/fulfillment.js';
import { pricedLine } from '../commerce/priced-line.js';
import { generationOf, money, moneyText } from './commerce-support.js';

export const purchaseOrderParams = z.strictObject({
  supplier: z.string().min(1).max(200).default('Default supplier'),
});

export type PurchaseOrderParams = z.infer<typeof purchaseOrderParams>;

async function cancelIssued(ctx: StepContext<PurchaseOrderParams>): Promise<void> {
  await ctx.ports.purchasing.cancelIssued(ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now());
}

export const commercePurchaseOrder: NodeTypeDef<PurchaseOrderParams> = {
  type: 'commerce.purchase_order',
  kind: 'step',
  label: 'Purchase order',
  description:
    'Issues a purchase order (number PO-n) to the supplier for the order\'s priced lines, to be received at the lines\' ' +
    'location (or the order\'s fulfillment location). Undo cancels a purchase order not yet received.',
  params: purchaseOrderParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ purchaseOrderId, number, supplier, locationId, amount, currency }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const lines = (await ctx.ports.orderLines.read(order.id)).map(pricedLine);
    const locationId = lines.find((l) => l.locationId)?.locationId ?? fulfillmentOf(order.input).locationId;
    const { id, number } = await ctx.ports.purchasing.issue(
      {
        orderId: order.id,
        generation: generationOf(order),
        nodeId: ctx.nodeId,
        supplier: ctx.params.supplier,
        locationId,
        lines: lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, qty: l.qty, unitPriceMinor: l.unitPriceMinor })),
        amountMinor: order.total,
        currency: order.currency,
      },
      ctx.clock.now(),
    );
    return {
      branch: 'ok',
      output: { purchaseOrderId: id, number, supplier: ctx.params.supplier, locationId, amount: money(order.total, order.currency), currency: order.currency },
      summary: `Purchase order ${number} to ${ctx.params.supplier} for ${moneyText(order.total, order.currency)}`,
    };
  },
  compensate: cancelIssued,
  cancel: cancelIssued,
};

// Node type `commerce.purchase_order`: issues a purchase order to the supplier for the order's lines.
import { z } from 'zod';
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import { pricedLine, readOrderLines } from '../commerce/order-lines-repo.js';
import { fulfillmentOf } from '../commerce/reserve-order-stock.js';
import { generationOf, money, moneyText } from './commerce-support.js';

export const purchaseOrderParams = z.strictObject({
  supplier: z.string().min(1).max(200).default('Default supplier'),
});

export type PurchaseOrderParams = z.infer<typeof purchaseOrderParams>;

async function cancelIssued(ctx: StepContext<PurchaseOrderParams>): Promise<void> {
  await ctx.tx.query(
    `UPDATE purchase_orders SET status = 'cancelled', cancelled_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'issued'`,
    [ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now()],
  );
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
    const lines = (await readOrderLines(ctx.tx, order.id)).map(pricedLine);
    const locationId = lines.find((l) => l.locationId)?.locationId ?? fulfillmentOf(order.input).locationId;
    const { rows } = await ctx.tx.query<{ number: string }>(`SELECT 'PO-' || nextval('purchase_order_number_seq') AS number`);
    const number: string = rows[0].number;
    const id = newCommerceId('pord');
    await ctx.tx.query(
      `INSERT INTO purchase_orders (id, number, order_id, generation, node_id, supplier, location_id, lines, amount_minor, currency, status, issued_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'issued', $11)`,
      [
        id, number, order.id, generationOf(order), ctx.nodeId, ctx.params.supplier, locationId,
        JSON.stringify(lines.map((l) => ({ lineNo: l.lineNo, sku: l.sku, qty: l.qty, unitPriceMinor: l.unitPriceMinor }))),
        order.total, order.currency, ctx.clock.now(),
      ],
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

// Node type `commerce.deliver_digital`: issues one code per unit of every digital line; undo revokes them.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { newCommerceId, newHumanCode } from '../domain/commerce-ids.js';
import { orderStockLines } from '../commerce/reserve-order-stock.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

/** Shows only the last group of a code: outputs travel in webhooks, the codes themselves stay in the database. */
export function maskCode(code: string): string {
  return code.replace(/[A-Z0-9](?=.*-)/g, '*');
}

async function revoke(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.tx.query(
    `UPDATE digital_codes SET status = 'revoked', revoked_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'issued'`,
    [ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now()],
  );
}

export const commerceDeliverDigital: NodeTypeDef<NoParams> = {
  type: 'commerce.deliver_digital',
  kind: 'step',
  label: 'Deliver digital goods',
  description:
    'Issues one code per unit of every line whose product is digital (gift cards, licences). Undo (rollback or cancel) ' +
    'revokes the issued codes.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ codes: [{ lineNo, sku, code (masked) }] }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const generation = generationOf(order);
    const { digital } = await orderStockLines(ctx.tx, order.id);
    const codes: { lineNo: number; sku: string; code: string }[] = [];
    for (const { line } of digital)
      for (let unit = 0; unit < line.qty; unit++) {
        const code = newHumanCode(4, 4);
        await ctx.tx.query(
          `INSERT INTO digital_codes (id, order_id, generation, node_id, line_no, sku, code, status, issued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 'issued', $8)`,
          [newCommerceId('dc'), order.id, generation, ctx.nodeId, line.lineNo, line.sku, code, now],
        );
        codes.push({ lineNo: line.lineNo, sku: line.sku, code: maskCode(code) });
      }
    if (codes.length === 0) return { branch: 'ok', output: { codes }, summary: 'No digital lines' };
    return { branch: 'ok', output: { codes }, summary: `Issued ${codes.length} code(s)`, emit: { event: 'order.delivered' } };
  },
  compensate: revoke,
  cancel: revoke,
};

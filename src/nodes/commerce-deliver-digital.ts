// Node type `commerce.deliver_digital`: issues one code per unit of every digital line; undo revokes them.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { generationOf, noParams, type NoParams } from './commerce-support.js';

/** Shows only the last group of a code: outputs travel in webhooks, the codes themselves stay in the database. */
export function maskCode(code: string): string {
  return code.replace(/[A-Z0-9](?=.*-)/g, '*');
}

async function revoke(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.ports.digitalGoods.revoke(ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now());
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
    const { digital } = await ctx.ports.stock.orderStockLines(order.id);
    const lines = digital.map(({ line }) => ({ lineNo: line.lineNo, sku: line.sku, qty: line.qty }));
    const issued = await ctx.ports.digitalGoods.issue({ orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, lines }, now);
    const codes = issued.map((c) => ({ lineNo: c.lineNo, sku: c.sku, code: maskCode(c.code) }));
    if (codes.length === 0) return { branch: 'ok', output: { codes }, summary: 'No digital lines' };
    return { branch: 'ok', output: { codes }, summary: `Issued ${codes.length} code(s)`, emit: { event: 'order.delivered' } };
  },
  compensate: revoke,
  cancel: revoke,
};

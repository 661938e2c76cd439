// Node type `commerce.authorize_payment`: holds the order total on the buyer's card; undo voids the hold.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, noParams, paymentsPort, simulateOf, type NoParams } from './commerce-support.js';

/** Voids this node's authorizations that were not captured (captured money stays: a cancel refunds nothing). */
async function voidOpen(ctx: StepContext<NoParams>): Promise<void> {
  const { rows } = await ctx.tx.query(
    `SELECT id FROM payment_authorizations WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'authorized'`,
    [ctx.order.id, generationOf(ctx.order), ctx.nodeId],
  );
  for (const r of rows) await paymentsPort(ctx.services).void(ctx.tx, r.id, ctx.clock.now());
}

export const commerceAuthorizePayment: NodeTypeDef<NoParams> = {
  type: 'commerce.authorize_payment',
  kind: 'step',
  label: 'Authorize payment',
  description:
    'Authorizes the order total on the buyer\'s card (payment gateway port). A declined card (`card_declined`) fails ' +
    'without retry. Undo (rollback or cancel) voids an authorization that was not captured.',
  params: noParams,
  ...FALLIBLE_STEP,
  outputs: '{ authorizationId, amount, currency }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const auth = await paymentsPort(ctx.services).authorize(
      ctx.tx,
      { orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, amountMinor: order.total, currency: order.currency, simulate: simulateOf(order) },
      ctx.clock.now(),
    );
    return {
      branch: 'ok',
      output: { authorizationId: auth.id, amount: money(auth.amountMinor, auth.currency), currency: auth.currency },
      summary: `Authorized ${moneyText(auth.amountMinor, auth.currency)}`,
    };
  },
  compensate: voidOpen,
  cancel: voidOpen,
};

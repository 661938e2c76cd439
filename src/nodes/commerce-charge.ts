// Node type `commerce.charge`: takes the order total at once (till, stored card, subscription period).
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { refundChargesOfNode } from './commerce-capture-payment.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, paymentsPort, simulateOf } from './commerce-support.js';

export const chargeParams = z.strictObject({
  /** How the buyer pays, recorded on the charge: `card`, `card_present` (till), `stored_card` (subscription). */
  method: z.enum(['card', 'card_present', 'stored_card', 'cash']).default('card'),
});

export type ChargeParams = z.infer<typeof chargeParams>;

export const commerceCharge: NodeTypeDef<ChargeParams> = {
  type: 'commerce.charge',
  kind: 'step',
  label: 'Charge',
  description:
    'Charges the order total in one go (no separate authorization). `card_declined` fails without retry. ' +
    'Rollback refunds the charge; a cancel keeps the money (refunds are a flow step).',
  params: chargeParams,
  ...FALLIBLE_STEP,
  outputs: '{ chargeId, amount, currency, method }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const { chargeId } = await paymentsPort(ctx.services).charge(
      ctx.tx,
      { orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, amountMinor: order.total, currency: order.currency, method: ctx.params.method, simulate: simulateOf(order) },
      ctx.clock.now(),
    );
    return {
      branch: 'ok',
      output: { chargeId, amount: money(order.total, order.currency), currency: order.currency, method: ctx.params.method },
      summary: `Charged ${moneyText(order.total, order.currency)} (${ctx.params.method})`,
      emit: { event: 'order.paid' },
    };
  },
  compensate: (ctx) => refundChargesOfNode(ctx, 'Order rolled back'),
  // A cancel does not refund charged money.
  cancel: null,
};

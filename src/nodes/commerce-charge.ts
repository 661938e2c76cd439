// Node type `commerce.charge`: takes the order total at once (till, stored card, subscription period).
import { z } from 'zod';
import type { ExternalCall, NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import type { ChargeRequest } from '../commerce/payment-gateway.js';
import { chargeAnswer, chargeRequest } from '../commerce/http-payment-gateway.js';
import { refundChargesOfNode } from './commerce-capture-payment.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, paymentsAdapter, simulateOf, stepReference } from './commerce-support.js';

export const chargeParams = z.strictObject({
  /** How the buyer pays, recorded on the charge: `card`, `card_present` (till), `stored_card` (subscription). */
  method: z.enum(['card', 'card_present', 'stored_card', 'cash']).default('card'),
});

export type ChargeParams = z.infer<typeof chargeParams>;

/** What this step asks of the gateway: the order total, by the params' method. */
function chargeRequestOf(ctx: StepContext<ChargeParams>): ChargeRequest {
  const { order } = ctx;
  return { orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, amountMinor: order.total, currency: order.currency, method: ctx.params.method, simulate: simulateOf(order) };
}

function charged(ctx: StepContext<ChargeParams>, chargeId: string): StepResult {
  const { order } = ctx;
  return {
    branch: 'ok',
    output: { chargeId, amount: money(order.total, order.currency), currency: order.currency, method: ctx.params.method },
    summary: `Charged ${moneyText(order.total, order.currency)} (${ctx.params.method})`,
    emit: { event: 'order.paid' },
  };
}

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
  async run(ctx): Promise<StepResult | ExternalCall> {
    const req = chargeRequestOf(ctx);
    const http = await paymentsAdapter(ctx);
    if (http) return { call: chargeRequest(http, { ...req, reference: stepReference(ctx) }) };
    const { chargeId } = await ctx.ports.payments.charge(req, ctx.clock.now());
    return charged(ctx, chargeId);
  },
  // The HTTP gateway charged: record the charge as the ledger does, its id as the reference.
  async answer(ctx, answer): Promise<StepResult> {
    const { gatewayRef } = chargeAnswer(answer);
    const { chargeId } = await ctx.ports.payments.recordCharge({ ...chargeRequestOf(ctx), gatewayRef }, ctx.clock.now());
    return charged(ctx, chargeId);
  },
  compensate: (ctx) => refundChargesOfNode(ctx, 'Order rolled back'),
  // A cancel does not refund charged money.
  cancel: null,
};

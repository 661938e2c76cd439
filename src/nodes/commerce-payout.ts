// Node type `commerce.payout`: schedules each accepted third-party seller's payout net of refunds and commission.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { computePayouts } from '../domain/payout-math.js';
import { money, moneyText, noParams, type NoParams } from './commerce-support.js';

async function reverse(ctx: StepContext<NoParams>): Promise<void> {
  await ctx.ports.payouts.reverseScheduled(ctx.order.id, ctx.clock.now());
}

export const commercePayout: NodeTypeDef<NoParams> = {
  type: 'commerce.payout',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Schedule payouts',
  description:
    'For each accepted third-party seller: gross = seller subtotal; refunded = refunds so far x gross / order total ' +
    '(at most gross); commission = (gross - refunded) x seller commission; net = gross - refunded - commission, each ' +
    'rounded once to the currency\'s minor unit. Schedules the payouts; none without a third-party seller. ' +
    'Undo reverses scheduled payouts; a paid payout is left alone.',
  params: noParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ payouts: [{ sellerId, gross, refunded, commission, net, status }], commission, currency }',
  vars: 'vars.commission (total, order currency), vars.payouts = [{ sellerId, net }]',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const { catalogue, payments, payouts } = ctx.ports;
    const now = ctx.clock.now();
    const c = order.currency;
    const sellerOrders = await ctx.ports.sellerOrders.of(order.id);
    const sellers = await catalogue.sellersById(sellerOrders.flatMap((s) => (s.sellerId ? [s.sellerId] : [])));
    const refunds = await payments.refundedMinor(order.id);
    const computed = computePayouts(
      sellerOrders.map((s) => ({ sellerId: s.sellerId, status: s.status, subtotal: s.subtotalMinor })),
      (id) => sellers.get(id)!.commission,
      order.total,
      refunds,
    );
    if (computed.payouts.length === 0)
      return {
        branch: 'ok',
        output: { payouts: [], commission: 0, currency: c },
        vars: { commission: 0, payouts: [] },
        summary: 'No third-party seller: no payout',
      };
    const stored = await payouts.schedule(
      order.id,
      c,
      computed.payouts.map((p) => ({ ...p, sellerOrderId: sellerOrders.find((s) => s.sellerId === p.sellerId)!.id, commissionRate: sellers.get(p.sellerId)!.commission })),
      now,
    );
    return {
      branch: 'ok',
      output: {
        payouts: stored.map((p) => ({
          sellerId: p.sellerId,
          gross: money(p.gross, c),
          refunded: money(p.refunded, c),
          commission: money(p.commission, c),
          net: money(p.net, c),
          status: p.status,
        })),
        commission: money(computed.commission, c),
        currency: c,
      },
      vars: { commission: money(computed.commission, c), payouts: computed.summary.map((s) => ({ sellerId: s.sellerId, net: money(s.net, c) })) },
      summary: `Scheduled ${stored.length} payout(s): ${stored.map((p) => `${p.sellerId} ${moneyText(p.net, c)}`).join(', ')}`,
      emit: { event: 'order.payout_scheduled' },
    };
  },
  compensate: reverse,
  cancel: reverse,
};

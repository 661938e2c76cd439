// Node type `commerce.refund`: gives money back on the order's charges (all that is left, or a given amount); a return refunds its parent's.
import { z } from 'zod';
import type { ExternalCall, NodeTypeDef, OrderView, StepContext, StepResult } from '../engine/node-type.js';
import { readPath } from '../engine/template.js';
import { refundAnswer, refundRequest } from '../commerce/http-payment-gateway.js';
import { TerminalError } from '../domain/errors.js';
import { toMinor } from '../domain/money.js';
import { FALLIBLE_STEP, money, moneyText, paymentsAdapter, simulateOf } from './commerce-support.js';

export const refundParams = z
  .strictObject({
    /** A fixed amount in the order currency (decimal, e.g. 12.5). */
    amount: z.number().positive().max(1_000_000_000).optional(),
    /** Where to read the amount at run time, e.g. `vars.return_requested.amount`. */
    amountFrom: z.string().regex(/^vars(\.[A-Za-z0-9_-]+)+$/, 'Expected a path like "vars.return_requested.amount"').optional(),
    reason: z.string().min(1).max(500).optional(),
  })
  .refine((p) => !(p.amount !== undefined && p.amountFrom !== undefined), { message: 'Give amount or amountFrom, not both' });

export type RefundParams = z.infer<typeof refundParams>;

/** One part of the refund: money back on one charge (latest charges first). */
interface RefundPart {
  chargeId: string;
  gatewayRef: string;
  amountMinor: number;
}

/**
 * The order whose payment the refund goes against: the order itself, or for a return (contract 18)
 * the order it returns from, whose charges and refunds it shares (so the parent's payout nets it).
 */
export function paymentOrderOf(order: OrderView): string {
  return typeof order.returnOf === 'string' ? order.returnOf : order.id;
}

/** How much to refund (capped at what is left) and from which charges. */
async function planRefund(ctx: StepContext<RefundParams>): Promise<{ amount: number; parts: RefundPart[] }> {
  const { order, params } = ctx;
  const open = await ctx.ports.payments.refundableChargesOfOrder(paymentOrderOf(order));
  const refundable = open.reduce((n, c) => n + c.openMinor, 0);
  let wanted = refundable;
  if (params.amount !== undefined) wanted = toMinor(params.amount, order.currency);
  if (params.amountFrom !== undefined) {
    const value = readPath({ vars: ctx.vars }, params.amountFrom);
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new TerminalError(`${params.amountFrom} does not hold a positive amount`);
    wanted = toMinor(value, order.currency);
  }
  const amount = Math.min(wanted, refundable);
  const parts: RefundPart[] = [];
  let left = Math.max(amount, 0);
  for (const charge of open) {
    if (left === 0) break;
    const part = Math.min(left, charge.openMinor);
    parts.push({ chargeId: charge.id, gatewayRef: charge.gatewayRef, amountMinor: part });
    left -= part;
  }
  return { amount, parts };
}

async function refunded(ctx: StepContext<RefundParams>, amount: number, refunds: { refundId: string; chargeId: string; amountMinor: number }[]): Promise<StepResult> {
  const { order } = ctx;
  const { currency } = order;
  const parent = paymentOrderOf(order);
  // A return's refund is its parent's event (contract 18): the parent's summary, and the return named (outbox.ts adds returnId).
  const parentSummary = parent === order.id ? null : await ctx.ports.returns.summaryOf(parent);
  return {
    branch: 'ok',
    output: { refunds: refunds.map((r) => ({ refundId: r.refundId, chargeId: r.chargeId, amount: money(r.amountMinor, currency) })), amount: money(amount, currency), currency },
    summary: parent === order.id ? `Refunded ${moneyText(amount, currency)}` : `Refunded ${moneyText(amount, currency)} on order ${parent}`,
    emit: { event: 'order.refunded', ...(parentSummary ? { data: { order: parentSummary, returnId: order.id } } : {}) },
  };
}

const NOTHING_TO_REFUND = (currency: string): StepResult => ({ branch: 'ok', output: { refunds: [], amount: 0, currency }, summary: 'Nothing to refund' });

export const commerceRefund: NodeTypeDef<RefundParams> = {
  type: 'commerce.refund',
  kind: 'step',
  label: 'Refund',
  description:
    'Refunds `amount` (or the number at `amountFrom`, or by default everything captured or charged and not yet refunded), ' +
    'capped at what is left, against the order\'s latest charges first; a return refunds against the order it returns ' +
    'from (its charges, its refunds, its `order.refunded`). `refund_error` makes the gateway fail (retried, ' +
    'then the failed branch or rollback). A refund is not undone.',
  params: refundParams,
  ...FALLIBLE_STEP,
  outputs: '{ refunds: [{ refundId, chargeId, amount }], amount, currency }',
  async run(ctx): Promise<StepResult | ExternalCall> {
    const { order, params } = ctx;
    const plan = await planRefund(ctx);
    if (plan.amount <= 0) return NOTHING_TO_REFUND(order.currency);
    const http = await paymentsAdapter(ctx);
    if (http)
      return { call: refundRequest(http, { orderId: paymentOrderOf(order), currency: order.currency, reason: params.reason ?? null, parts: plan.parts.map((p) => ({ chargeRef: p.gatewayRef, amountMinor: p.amountMinor })) }) };
    const refunds = [];
    for (const part of plan.parts) {
      const { refundId } = await ctx.ports.payments.refund(
        { orderId: paymentOrderOf(order), nodeId: ctx.nodeId, chargeId: part.chargeId, amountMinor: part.amountMinor, currency: order.currency, reason: params.reason ?? null, simulate: simulateOf(order) },
        ctx.clock.now(),
      );
      refunds.push({ refundId, chargeId: part.chargeId, amountMinor: part.amountMinor });
    }
    return refunded(ctx, plan.amount, refunds);
  },
  // The HTTP gateway refunded every part: record them as the ledger does, each with the gateway's id.
  async answer(ctx, answer): Promise<StepResult> {
    const { order, params } = ctx;
    const plan = await planRefund(ctx);
    const { gatewayRefs } = refundAnswer(answer, plan.parts.length);
    const refunds = [];
    for (const [i, part] of plan.parts.entries()) {
      const { refundId } = await ctx.ports.payments.recordRefund(
        { orderId: paymentOrderOf(order), nodeId: ctx.nodeId, chargeId: part.chargeId, amountMinor: part.amountMinor, currency: order.currency, reason: params.reason ?? null, gatewayRef: gatewayRefs[i] },
        ctx.clock.now(),
      );
      refunds.push({ refundId, chargeId: part.chargeId, amountMinor: part.amountMinor });
    }
    return refunded(ctx, plan.amount, refunds);
  },
};

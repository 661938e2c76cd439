// Node type `commerce.capture_payment`: captures the lesser of the authorization and the re-totaled order, releasing the rest.
import type { ExternalCall, NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { captureAnswer, captureRequest, refundRequest } from '../commerce/http-payment-gateway.js';
import { computeCapture } from '../domain/capture-math.js';
import { TerminalError } from '../domain/errors.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, noParams, paymentsAdapter, simulateOf, type NoParams } from './commerce-support.js';

/**
 * Rollback after a capture or charge gives the money back (a refund); a cancel keeps it (spec
 * "Cancel"). With the HTTP gateway the refunds are recorded here and asked for in one call after commit.
 */
export async function refundChargesOfNode(ctx: StepContext<unknown>, reason: string): Promise<void | ExternalCall> {
  const { payments } = ctx.ports;
  const open = await payments.refundableChargesOfNode(ctx.order.id, generationOf(ctx.order), ctx.nodeId);
  const http = await paymentsAdapter(ctx);
  for (const c of open) {
    const refund = { orderId: ctx.order.id, nodeId: ctx.nodeId, chargeId: c.id, amountMinor: c.openMinor, currency: c.currency, reason };
    if (http) await payments.recordRefund({ ...refund, gatewayRef: null }, ctx.clock.now());
    else await payments.refund({ ...refund, simulate: simulateOf(ctx.order) }, ctx.clock.now());
  }
  if (!http || open.length === 0) return;
  return { call: refundRequest(http, { orderId: ctx.order.id, currency: open[0].currency, reason, parts: open.map((c) => ({ chargeRef: c.gatewayRef, amountMinor: c.openMinor })) }) };
}

/** The capture this step makes: the run's latest open authorization and how much of it to take. */
interface CapturePlan {
  authorizationId: string;
  gatewayRef: string;
  authorized: number;
  captured: number;
}

async function planCapture(ctx: StepContext<NoParams>): Promise<CapturePlan> {
  const { order } = ctx;
  const auth = await ctx.ports.payments.latestOpenAuthorization(order.id, generationOf(order));
  if (!auth) throw new TerminalError('No open payment authorization to capture');
  return { authorizationId: auth.id, gatewayRef: auth.gatewayRef, authorized: auth.amountMinor, captured: computeCapture(auth.amountMinor, order.total).captured };
}

function captured(ctx: StepContext<NoParams>, plan: CapturePlan, res: { chargeId: string; capturedMinor: number; releasedMinor: number }): StepResult {
  const c = ctx.order.currency;
  return {
    branch: 'ok',
    output: {
      authorizationId: plan.authorizationId,
      chargeId: res.chargeId,
      authorized: money(plan.authorized, c),
      captured: money(res.capturedMinor, c),
      released: money(res.releasedMinor, c),
      currency: c,
    },
    summary: `Captured ${moneyText(res.capturedMinor, c)}` + (res.releasedMinor > 0 ? `, released ${moneyText(res.releasedMinor, c)}` : ''),
    emit: { event: 'order.paid' },
  };
}

export const commerceCapturePayment: NodeTypeDef<NoParams> = {
  type: 'commerce.capture_payment',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Capture payment',
  description:
    'Captures min(authorized amount, current order total) of the order\'s open authorization and releases the rest ' +
    '(after a partial acceptance the order total fell). `capture_error` makes the gateway fail (retried, then rollback). ' +
    'Rollback refunds the capture; a cancel keeps the money (refunds are a flow step).',
  params: noParams,
  ...FALLIBLE_STEP,
  outputs: '{ authorizationId, chargeId, authorized, captured, released, currency }',
  async run(ctx): Promise<StepResult | ExternalCall> {
    const plan = await planCapture(ctx);
    const http = await paymentsAdapter(ctx);
    if (http) return { call: captureRequest(http, { authorizationRef: plan.gatewayRef, amountMinor: plan.captured, currency: ctx.order.currency }) };
    const res = await ctx.ports.payments.capture(
      { authorizationId: plan.authorizationId, generation: generationOf(ctx.order), nodeId: ctx.nodeId, amountMinor: plan.captured, simulate: simulateOf(ctx.order) },
      ctx.clock.now(),
    );
    return captured(ctx, plan, res);
  },
  // The HTTP gateway captured: record the capture and its charge as the ledger does (nothing changed the plan meanwhile: the node still runs).
  async answer(ctx, answer): Promise<StepResult> {
    const { gatewayRef } = captureAnswer(answer);
    const plan = await planCapture(ctx);
    const res = await ctx.ports.payments.recordCapture(
      { authorizationId: plan.authorizationId, amountMinor: plan.captured, generation: generationOf(ctx.order), nodeId: ctx.nodeId, gatewayRef },
      ctx.clock.now(),
    );
    return captured(ctx, plan, res);
  },
  compensate: (ctx) => refundChargesOfNode(ctx, 'Order rolled back'),
  // A cancel does not refund captured money.
  cancel: null,
};

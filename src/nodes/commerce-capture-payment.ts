// Node type `commerce.capture_payment`: captures the lesser of the authorization and the re-totaled order, releasing the rest.
import type { ExternalCall, NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { captureAnswer, captureRequest, refundRequest } from '../commerce/http-payment-gateway.js';
import { recordCapture, recordRefund } from '../commerce/payment-records.js';
import { computeCapture } from '../domain/capture-math.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import { TerminalError } from '../domain/errors.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, noParams, paymentsAdapter, paymentsPort, simulateOf, type NoParams } from './commerce-support.js';

/**
 * Rollback after a capture or charge gives the money back (a refund); a cancel keeps it (spec
 * "Cancel"). With the HTTP gateway the refunds are recorded here and asked for in one call after commit.
 */
export async function refundChargesOfNode(ctx: StepContext<unknown>, reason: string): Promise<void | ExternalCall> {
  const { rows } = await ctx.tx.query(
    `SELECT c.id, c.amount_minor, c.currency, c.gateway_ref,
            c.amount_minor - coalesce((SELECT sum(r.amount_minor) FROM refunds r WHERE r.charge_id = c.id AND r.status = 'succeeded'), 0) AS open_minor
       FROM payment_charges c WHERE c.order_id = $1 AND c.generation = $2 AND c.node_id = $3`,
    [ctx.order.id, generationOf(ctx.order), ctx.nodeId],
  );
  const open = rows.map((c) => ({ id: c.id as string, currency: c.currency as string, gatewayRef: c.gateway_ref as string, open: Number(c.open_minor) })).filter((c) => c.open > 0);
  const http = await paymentsAdapter(ctx);
  for (const c of open) {
    const refund = { orderId: ctx.order.id, nodeId: ctx.nodeId, chargeId: c.id, amountMinor: c.open, currency: c.currency, reason };
    if (http) await recordRefund(ctx.tx, { ...refund, id: newCommerceId('re'), gatewayRef: null }, ctx.clock.now());
    else await paymentsPort(ctx.services).refund(ctx.tx, { ...refund, simulate: simulateOf(ctx.order) }, ctx.clock.now());
  }
  if (!http || open.length === 0) return;
  return { call: refundRequest(http, { orderId: ctx.order.id, currency: open[0].currency, reason, parts: open.map((c) => ({ chargeRef: c.gatewayRef, amountMinor: c.open })) }) };
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
  const { rows } = await ctx.tx.query<{ id: string; amount_minor: string; gateway_ref: string }>(
    `SELECT id, amount_minor, gateway_ref FROM payment_authorizations
      WHERE order_id = $1 AND generation = $2 AND status = 'authorized' ORDER BY created_at DESC, id DESC LIMIT 1`,
    [order.id, generationOf(order)],
  );
  if (rows.length === 0) throw new TerminalError('No open payment authorization to capture');
  const authorized = Number(rows[0].amount_minor);
  return { authorizationId: rows[0].id, gatewayRef: rows[0].gateway_ref, authorized, captured: computeCapture(authorized, order.total).captured };
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
    const res = await paymentsPort(ctx.services).capture(
      ctx.tx,
      { authorizationId: plan.authorizationId, generation: generationOf(ctx.order), nodeId: ctx.nodeId, amountMinor: plan.captured, simulate: simulateOf(ctx.order) },
      ctx.clock.now(),
    );
    return captured(ctx, plan, res);
  },
  // The HTTP gateway captured: record the capture and its charge as the ledger does (nothing changed the plan meanwhile: the node still runs).
  async answer(ctx, answer): Promise<StepResult> {
    const { gatewayRef } = captureAnswer(answer);
    const plan = await planCapture(ctx);
    const res = await recordCapture(
      ctx.tx,
      { authorizationId: plan.authorizationId, amountMinor: plan.captured, chargeId: newCommerceId('ch'), generation: generationOf(ctx.order), nodeId: ctx.nodeId, gatewayRef },
      ctx.clock.now(),
    );
    return captured(ctx, plan, res);
  },
  compensate: (ctx) => refundChargesOfNode(ctx, 'Order rolled back'),
  // A cancel does not refund captured money.
  cancel: null,
};

// Node type `commerce.capture_payment`: captures the lesser of the authorization and the re-totaled order, releasing the rest.
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { computeCapture } from '../domain/capture-math.js';
import { TerminalError } from '../domain/errors.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, noParams, paymentsPort, simulateOf, type NoParams } from './commerce-support.js';

/** Rollback after a capture gives the money back (a refund); a cancel keeps it (spec "Cancel"). */
export async function refundChargesOfNode(ctx: StepContext<unknown>, reason: string): Promise<void> {
  const { rows } = await ctx.tx.query(
    `SELECT c.id, c.amount_minor, c.currency,
            c.amount_minor - coalesce((SELECT sum(r.amount_minor) FROM refunds r WHERE r.charge_id = c.id AND r.status = 'succeeded'), 0) AS open_minor
       FROM payment_charges c WHERE c.order_id = $1 AND c.generation = $2 AND c.node_id = $3`,
    [ctx.order.id, generationOf(ctx.order), ctx.nodeId],
  );
  for (const c of rows) {
    const open = Number(c.open_minor);
    if (open <= 0) continue;
    await paymentsPort(ctx.services).refund(
      ctx.tx,
      { orderId: ctx.order.id, nodeId: ctx.nodeId, chargeId: c.id, amountMinor: open, currency: c.currency, reason, simulate: simulateOf(ctx.order) },
      ctx.clock.now(),
    );
  }
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
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const { rows } = await ctx.tx.query(
      `SELECT id, amount_minor FROM payment_authorizations
        WHERE order_id = $1 AND generation = $2 AND status = 'authorized' ORDER BY created_at DESC, id DESC LIMIT 1`,
      [order.id, generationOf(order)],
    );
    if (rows.length === 0) throw new TerminalError('No open payment authorization to capture');
    const authorized = Number(rows[0].amount_minor);
    const amounts = computeCapture(authorized, order.total);
    const res = await paymentsPort(ctx.services).capture(
      ctx.tx,
      { authorizationId: rows[0].id, generation: generationOf(order), nodeId: ctx.nodeId, amountMinor: amounts.captured, simulate: simulateOf(order) },
      ctx.clock.now(),
    );
    const c = order.currency;
    return {
      branch: 'ok',
      output: {
        authorizationId: rows[0].id,
        chargeId: res.chargeId,
        authorized: money(authorized, c),
        captured: money(res.capturedMinor, c),
        released: money(res.releasedMinor, c),
        currency: c,
      },
      summary: `Captured ${moneyText(res.capturedMinor, c)}` + (res.releasedMinor > 0 ? `, released ${moneyText(res.releasedMinor, c)}` : ''),
      emit: { event: 'order.paid' },
    };
  },
  compensate: (ctx) => refundChargesOfNode(ctx, 'Order rolled back'),
  // A cancel does not refund captured money.
  cancel: null,
};

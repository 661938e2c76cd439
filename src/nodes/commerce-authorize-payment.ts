// Node type `commerce.authorize_payment`: holds the order total on the buyer's card; undo voids the hold.
import type { ExternalCall, NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import type { AuthorizationRecord, AuthorizeRequest } from '../commerce/payment-gateway.js';
import { authorizationAnswer, authorizationRequest, voidRequest } from '../commerce/http-payment-gateway.js';
import { FALLIBLE_STEP, generationOf, money, moneyText, noParams, paymentsAdapter, simulateOf, stepReference, type NoParams } from './commerce-support.js';

/** What this step asks of the gateway: the order total in the order currency. */
function authorizeRequestOf(ctx: StepContext<NoParams>): AuthorizeRequest {
  const { order } = ctx;
  return { orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, amountMinor: order.total, currency: order.currency, simulate: simulateOf(order) };
}

function authorized(auth: AuthorizationRecord): StepResult {
  return {
    branch: 'ok',
    output: { authorizationId: auth.id, amount: money(auth.amountMinor, auth.currency), currency: auth.currency },
    summary: `Authorized ${moneyText(auth.amountMinor, auth.currency)}`,
  };
}

/**
 * Voids this node's authorizations that were not captured (captured money stays: a cancel refunds
 * nothing). With the HTTP gateway the latest one is marked voided here and voided remotely after commit.
 */
async function voidOpen(ctx: StepContext<NoParams>): Promise<void | ExternalCall> {
  const { payments } = ctx.ports;
  const now = ctx.clock.now();
  const open = await payments.openAuthorizationsOfNode(ctx.order.id, generationOf(ctx.order), ctx.nodeId);
  const http = await paymentsAdapter(ctx);
  if (!http) {
    for (const auth of open) await payments.void(auth.id, now);
    return;
  }
  // One undo call per step: the authorization of the node's latest run.
  const latest = open[0];
  if (!latest) return;
  await payments.recordVoid(latest.id, now);
  return { call: voidRequest(http, latest.gatewayRef) };
}

export const commerceAuthorizePayment: NodeTypeDef<NoParams> = {
  type: 'commerce.authorize_payment',
  kind: 'step',
  decidesBeforeWriting: true,
  label: 'Authorize payment',
  description:
    'Authorizes the order total on the buyer\'s card (payment gateway port). A declined card (`card_declined`) fails ' +
    'without retry. Undo (rollback or cancel) voids an authorization that was not captured.',
  params: noParams,
  ...FALLIBLE_STEP,
  outputs: '{ authorizationId, amount, currency }',
  async run(ctx): Promise<StepResult | ExternalCall> {
    const req = authorizeRequestOf(ctx);
    const http = await paymentsAdapter(ctx);
    if (http) return { call: authorizationRequest(http, { ...req, reference: stepReference(ctx) }) };
    return authorized(await ctx.ports.payments.authorize(req, ctx.clock.now()));
  },
  // The HTTP gateway answered: record the authorization as the ledger does, its id as the reference.
  async answer(ctx, answer): Promise<StepResult> {
    const { gatewayRef } = authorizationAnswer(answer);
    return authorized(await ctx.ports.payments.recordAuthorization({ ...authorizeRequestOf(ctx), gatewayRef }, ctx.clock.now()));
  },
  compensate: voidOpen,
  cancel: voidOpen,
};

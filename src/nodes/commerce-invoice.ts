// Node type `commerce.invoice`: raises an on-account invoice for the order total; undo reverses it while open.
import { z } from 'zod';
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { generationOf, money, moneyText } from './commerce-support.js';

export const invoiceParams = z.strictObject({
  /** Payment terms: the invoice is due this many days after issue (net 30 by default). */
  termsDays: z.int().min(0).max(365).default(30),
});

export type InvoiceParams = z.infer<typeof invoiceParams>;

const DAY_MS = 86_400_000;

async function reverseOpen(ctx: StepContext<InvoiceParams>): Promise<void> {
  await ctx.ports.invoices.reverseOpen(ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now());
}

export const commerceInvoice: NodeTypeDef<InvoiceParams> = {
  type: 'commerce.invoice',
  kind: 'step',
  label: 'Invoice on account',
  description:
    'Issues an on-account invoice (number INV-n) for the order total, due after `termsDays`; the customer pays later. ' +
    'Open invoices count against the customer\'s credit limit. Undo (rollback or cancel) reverses an open invoice.',
  params: invoiceParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ invoiceId, number, amount, currency, issuedAt, dueAt }',
  async run(ctx): Promise<StepResult> {
    const { order } = ctx;
    const now = ctx.clock.now();
    const dueAt = now + ctx.params.termsDays * DAY_MS;
    const { id, number } = await ctx.ports.invoices.issue(
      { orderId: order.id, generation: generationOf(order), nodeId: ctx.nodeId, customerId: order.customerId, amountMinor: order.total, currency: order.currency, termsDays: ctx.params.termsDays, dueAt },
      now,
    );
    return {
      branch: 'ok',
      output: { invoiceId: id, number, amount: money(order.total, order.currency), currency: order.currency, issuedAt: now, dueAt },
      summary: `Invoice ${number} for ${moneyText(order.total, order.currency)}, due in ${ctx.params.termsDays} days`,
      emit: { event: 'order.invoiced' },
    };
  },
  compensate: reverseOpen,
  cancel: reverseOpen,
};

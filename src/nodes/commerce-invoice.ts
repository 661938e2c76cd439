// Node type `commerce.invoice`: raises an on-account invoice for the order total; undo reverses it while open.
import { z } from 'zod';
import type { NodeTypeDef, StepContext, StepResult } from '../engine/node-type.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import { generationOf, money, moneyText } from './commerce-support.js';

export const invoiceParams = z.strictObject({
  /** Payment terms: the invoice is due this many days after issue (net 30 by default). */
  termsDays: z.int().min(0).max(365).default(30),
});

export type InvoiceParams = z.infer<typeof invoiceParams>;

const DAY_MS = 86_400_000;

async function reverseOpen(ctx: StepContext<InvoiceParams>): Promise<void> {
  await ctx.tx.query(
    `UPDATE invoices SET status = 'reversed', reversed_at = $4 WHERE order_id = $1 AND generation = $2 AND node_id = $3 AND status = 'open'`,
    [ctx.order.id, generationOf(ctx.order), ctx.nodeId, ctx.clock.now()],
  );
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
    const { rows } = await ctx.tx.query<{ number: string }>(`SELECT 'INV-' || nextval('invoice_number_seq') AS number`);
    const number: string = rows[0].number;
    const id = newCommerceId('inv');
    const dueAt = now + ctx.params.termsDays * DAY_MS;
    await ctx.tx.query(
      `INSERT INTO invoices (id, number, order_id, generation, node_id, customer_id, amount_minor, currency, terms_days, status, issued_at, due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $11)`,
      [id, number, order.id, generationOf(order), ctx.nodeId, order.customerId, order.total, order.currency, ctx.params.termsDays, now, dueAt],
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

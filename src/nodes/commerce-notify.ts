// Node type `commerce.notify`: records a message to the sellers still to answer, the buyer, or operations.
import { z } from 'zod';
import type { NodeTypeDef, StepResult } from '../engine/node-type.js';
import { renderTemplate } from '../engine/template.js';
import { newCommerceId } from '../domain/commerce-ids.js';

export const NOTIFY_AUDIENCES = ['seller', 'customer', 'operations'] as const;

const DEFAULTS: Record<(typeof NOTIFY_AUDIENCES)[number], { subject: string; message: string }> = {
  seller: {
    subject: 'Order {{order.id}} is waiting for your answer',
    message: 'Order {{order.id}} has lines for you. Accept or reject your part: send seller.responded with your sellerId and decision.',
  },
  customer: { subject: 'Your order {{order.id}}', message: 'Thank you for your order {{order.id}}. We will keep you posted.' },
  operations: { subject: 'Order {{order.id}} needs attention', message: 'Order {{order.id}} ({{order.title}}) needs a look from operations.' },
};

export const notifyParams = z.strictObject({
  /** `seller` writes to every seller in vars.pendingSellers. */
  to: z.enum(NOTIFY_AUDIENCES),
  /** Templates over {{order.*}} and {{vars.*}}; defaults per audience. */
  subject: z.string().min(1).max(200).optional(),
  message: z.string().min(1).max(4000).optional(),
});

export type NotifyParams = z.infer<typeof notifyParams>;

export const commerceNotify: NodeTypeDef<NotifyParams> = {
  type: 'commerce.notify',
  kind: 'step',
  label: 'Notify',
  description:
    'Records a message (subject and text are templates) for `to: seller` (every seller in vars.pendingSellers), ' +
    '`customer` (contact email or the customer account\'s email) or `operations`. Nothing to undo.',
  params: notifyParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ to, recipients, notificationIds }',
  async run(ctx): Promise<StepResult> {
    const { order, params } = ctx;
    let recipients: string[] = [];
    if (params.to === 'seller') {
      const pending = ctx.vars.pendingSellers;
      recipients = Array.isArray(pending) ? pending.filter((s): s is string => typeof s === 'string') : [];
    } else if (params.to === 'customer') {
      let email = typeof order.contactEmail === 'string' ? order.contactEmail : null;
      if (!email && order.customerId) email = (await ctx.tx.query('SELECT email FROM customers WHERE id = $1', [order.customerId])).rows[0]?.email ?? null;
      if (email) recipients = [email];
    } else recipients = ['operations'];
    const scope = { order, vars: ctx.vars };
    const subject = renderTemplate(params.subject ?? DEFAULTS[params.to].subject, scope);
    const body = renderTemplate(params.message ?? DEFAULTS[params.to].message, scope);
    const ids: string[] = [];
    for (const recipient of recipients) {
      const id = newCommerceId('ntf');
      await ctx.tx.query(
        `INSERT INTO notifications (id, order_id, node_id, audience, recipient, subject, body, status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8)`,
        [id, order.id, ctx.nodeId, params.to === 'operations' ? 'operations' : params.to, recipient, subject, body, ctx.clock.now()],
      );
      ids.push(id);
    }
    return {
      branch: 'ok',
      output: { to: params.to, recipients, notificationIds: ids },
      summary: recipients.length ? `Notified ${recipients.join(', ')}` : `No ${params.to} to notify`,
    };
  },
};

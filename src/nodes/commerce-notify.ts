// Node type `commerce.notify`: queues a message to the sellers still to answer, the buyer, or the operators; the
// notifications feature sends it after the commit (the rows are its outbox, docs/notifications.md).
import { z } from 'zod';
import type { NodeTypeDef, OrderView, StepResult } from '../engine/node-type.js';
import type { StepPorts } from '../engine/step-store.js';
import { renderTemplate } from '../engine/template.js';

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
  decidesBeforeWriting: true,
  label: 'Notify',
  description:
    'Queues a message (subject and text are templates) for `to: seller` (every seller in vars.pendingSellers, at the seller\'s email), ' +
    '`customer` (contact email or the customer account\'s email) or `operations` (the enabled operators); it is sent by email or ' +
    'webhook after the commit. Nothing to undo.',
  params: notifyParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ to, recipients, notificationIds }',
  async run(ctx): Promise<StepResult> {
    const { order, params } = ctx;
    const targets = await recipientsOf(ctx.ports, params.to, order, ctx.vars);
    const scope = { order, vars: ctx.vars };
    const subject = renderTemplate(params.subject ?? DEFAULTS[params.to].subject, scope);
    const body = renderTemplate(params.message ?? DEFAULTS[params.to].message, scope);
    const now = ctx.clock.now();
    const ids = await ctx.ports.notifications.queue({ orderId: order.id, nodeId: ctx.nodeId, audience: params.to, subject, body, recipients: targets }, now);
    const recipients = targets.map((t) => t.recipient);
    return {
      branch: 'ok',
      output: { to: params.to, recipients, notificationIds: ids },
      summary: recipients.length ? `Notified ${recipients.join(', ')}` : `No ${params.to} to notify`,
    };
  },
};

/** Who a notification goes to: a display name (seller id, email, `operations`) and the email address, when known. */
interface Target {
  recipient: string;
  address: string | null;
}

async function recipientsOf(ports: StepPorts, to: NotifyParams['to'], order: OrderView, vars: Record<string, unknown>): Promise<Target[]> {
  if (to === 'seller') {
    const pending = Array.isArray(vars.pendingSellers) ? vars.pendingSellers.filter((s): s is string => typeof s === 'string') : [];
    if (pending.length === 0) return [];
    const sellers = await ports.catalogue.sellersById(pending);
    return pending.map((id) => ({ recipient: id, address: sellers.get(id)?.email ?? null }));
  }
  if (to === 'customer') {
    let email = typeof order.contactEmail === 'string' ? order.contactEmail : null;
    if (!email && order.customerId) email = await ports.customers.email(order.customerId);
    return email ? [{ recipient: email, address: email }] : [];
  }
  // Operations: every enabled operator of the team; with none, one row that stays visible as queued.
  const emails = await ports.people.operatorEmails();
  return emails.length ? emails.map((email) => ({ recipient: email, address: email })) : [{ recipient: 'operations', address: null }];
}

// Node type `commerce.notify`: queues a message to the sellers still to answer, the buyer, or the operators; the
// notifications feature sends it after the commit (the rows are its outbox, docs/notifications.md).
import { z } from 'zod';
import type { NodeTypeDef, OrderView, StepResult } from '../engine/node-type.js';
import type { Queryable } from '../db/db.js';
import { renderTemplate } from '../engine/template.js';
import { newCommerceId } from '../domain/commerce-ids.js';
import { sellersById } from '../commerce/catalogue-repo.js';

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
    'Queues a message (subject and text are templates) for `to: seller` (every seller in vars.pendingSellers, at the seller\'s email), ' +
    '`customer` (contact email or the customer account\'s email) or `operations` (the enabled operators); it is sent by email or ' +
    'webhook after the commit. Nothing to undo.',
  params: notifyParams,
  branches: () => ['ok'],
  defaultBranch: 'ok',
  outputs: '{ to, recipients, notificationIds }',
  async run(ctx): Promise<StepResult> {
    const { order, params } = ctx;
    const targets = await recipientsOf(ctx.tx, params.to, order, ctx.vars);
    const scope = { order, vars: ctx.vars };
    const subject = renderTemplate(params.subject ?? DEFAULTS[params.to].subject, scope);
    const body = renderTemplate(params.message ?? DEFAULTS[params.to].message, scope);
    const now = ctx.clock.now();
    const rows = targets.map((t) => ({ id: newCommerceId('ntf'), recipient: t.recipient, address: t.address }));
    if (rows.length > 0)
      await ctx.tx.query(
        `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, created_at, updated_at)
         SELECT t.id, $2, $3, $4, t.recipient, t.address, $5, $6, 'queued', $7, $7
           FROM jsonb_to_recordset($1::jsonb) AS t(id text, recipient text, address text)`,
        [JSON.stringify(rows), order.id, ctx.nodeId, params.to, subject, body, now],
      );
    const ids = rows.map((r) => r.id);
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

async function recipientsOf(tx: Queryable, to: NotifyParams['to'], order: OrderView, vars: Record<string, unknown>): Promise<Target[]> {
  if (to === 'seller') {
    const pending = Array.isArray(vars.pendingSellers) ? vars.pendingSellers.filter((s): s is string => typeof s === 'string') : [];
    if (pending.length === 0) return [];
    const sellers = await sellersById(tx, pending);
    return pending.map((id) => ({ recipient: id, address: sellers.get(id)?.email ?? null }));
  }
  if (to === 'customer') {
    let email = typeof order.contactEmail === 'string' ? order.contactEmail : null;
    if (!email && order.customerId) email = (await tx.query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [order.customerId])).rows[0]?.email ?? null;
    return email ? [{ recipient: email, address: email }] : [];
  }
  // Operations: every enabled operator of the team; with none, one row that stays visible as queued.
  const { rows } = await tx.query<{ email: string }>("SELECT email FROM people WHERE role = 'operator' AND enabled ORDER BY email");
  return rows.length ? rows.map((r) => ({ recipient: r.email, address: r.email })) : [{ recipient: 'operations', address: null }];
}

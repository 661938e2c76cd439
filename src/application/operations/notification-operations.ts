// Notifications: the delivery log of one order's notifications (to whom, which channel, status, attempts, last error).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import { notFound } from '../../domain/errors.js';
import { listOrderNotifications } from '../../notifications/notification-store.js';

export interface NotificationOperationDeps {
  db: Db;
}

const notificationSchema = z
  .object({
    id: z.string(),
    orderId: z.string(),
    nodeId: z.string().describe('The notify step, or the approval that asked'),
    audience: z.enum(['seller', 'customer', 'operations', 'approver']),
    recipient: z.string().describe('A seller id, an email address, or `operations`'),
    address: z.string().nullable().describe('The email address it goes to; null when none is known'),
    channel: z.enum(['email', 'webhook']).nullable().describe('null while queued'),
    subject: z.string(),
    status: z.enum(['queued', 'pending', 'sent', 'failed']).describe('queued: no channel took it (lastError says why)'),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.number(),
    lastAttemptAt: z.number().nullable(),
    sentAt: z.number().nullable(),
  })
  .meta({ id: 'Notification' });

export function notificationOperations(deps: NotificationOperationDeps) {
  const { db } = deps;
  return [
    defineOperation({
      name: 'listOrderNotifications',
      summary: 'The notifications of an order and their delivery',
      description:
        'Oldest first, at most 200: each message to a seller, the buyer, an approver or the operators, the channel that carries it ' +
        '(email or the notification.requested webhook), its status (queued, pending, sent, failed), attempts and last error.',
      feature: 'notifications',
      role: 'viewer',
      effect: 'read',
      input: z.object({ id: z.string().min(1).max(100).describe('The order id') }),
      output: z.object({ notifications: z.array(notificationSchema) }),
      example: { id: 'ord_01JD7Z8Q2M4K6N8P0R2T4V6X8Z' },
      run: async (_caller, input) => {
        const { rows } = await db.query('SELECT 1 FROM orders WHERE id = $1', [input.id]);
        if (rows.length === 0) throw notFound('Order');
        return { notifications: await listOrderNotifications(db, input.id) };
      },
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    notifications: ReturnType<typeof notificationOperations>;
  }
}

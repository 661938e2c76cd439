// The approvals inbox as an operation (the dashboard's /approvals and REST GET /api/v1/approvals).
import { z } from 'zod';
import { defineOperation } from '../operation.js';
import type { Db } from '../../db/db.js';
import { INBOX_LIMIT, INBOX_STATUSES, listApprovalInbox } from '../../orders/approval-inbox.js';

/** An open or closed approval as lists show it (the inbox, needs_attention): which order and node, what, for whom, since when. */
export const approvalRowSchema = z.object({
  orderId: z.string(),
  nodeId: z.string(),
  title: z.string().nullable(),
  assignee: z.string().nullable(),
  amount: z.number().nullable(),
  currency: z.string(),
  deadline: z.number().nullable(),
  since: z.number(),
  orderTitle: z.string().nullable(),
});

const inboxRowSchema = approvalRowSchema
  .extend({
    outcome: z.string().describe('pending, approved, rejected, escalated or cancelled'),
    decidedBy: z.string().nullable(),
    note: z.string().nullable(),
    closedAt: z.number().nullable(),
    orderStatus: z.string(),
  })
  .meta({ id: 'ApprovalInboxRow' });

export function approvalOperations(deps: { db: Db }) {
  return [
    defineOperation({
      name: 'listApprovals',
      summary: 'The approvals inbox, oldest first',
      description: `Approvals by status (default pending: open and waiting for a decision; escalated: nobody decided before the timeout), oldest first, at most ${INBOX_LIMIT}.`,
      feature: 'orders',
      role: 'viewer',
      effect: 'read',
      input: z.object({ status: z.enum(INBOX_STATUSES).optional().describe('pending (default), approved, rejected, escalated or all') }),
      output: z.object({ approvals: z.array(inboxRowSchema) }),
      example: { status: 'pending' },
      run: async (_caller, input) => ({ approvals: await listApprovalInbox(deps.db, input.status ?? 'pending') }),
    }),
  ];
}

declare module '../operation-types.js' {
  interface OperationModules {
    approvals: ReturnType<typeof approvalOperations>;
  }
}

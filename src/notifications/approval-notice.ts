// What an opened approval tells its assignee: read from the internal `approval.opened` outbox event.
import type { OutboxRow } from '../engine/outbox/outbox-dispatcher.js';

export interface ApprovalNotice {
  nodeId: string;
  assignee: string;
  subject: string;
  body: string;
}

/** The notice of an `approval.opened` row; null when the row carries no assignee. */
export function approvalNotice(row: OutboxRow): ApprovalNotice | null {
  const wait = (row.data as { wait?: Record<string, unknown> }).wait;
  const order = (row.data as { order?: Record<string, unknown> }).order;
  if (!wait || typeof wait.assignee !== 'string' || typeof wait.nodeId !== 'string') return null;
  const title = typeof wait.title === 'string' ? wait.title : `Approve order ${row.orderId}`;
  const parts = [`${title}.`];
  if (order && typeof order.total === 'number' && typeof order.currency === 'string') parts.push(`Order total: ${order.total} ${order.currency}.`);
  if (typeof wait.deadline === 'number') parts.push(`Decide before ${new Date(wait.deadline).toISOString()}; after that it escalates.`);
  return { nodeId: wait.nodeId, assignee: wait.assignee, subject: `Approval waiting: ${title}`.slice(0, 200), body: parts.join(' ') };
}

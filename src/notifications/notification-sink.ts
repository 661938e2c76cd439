// Outbox sink: hands the notifications an order's commit queued (notify steps, approvals opened for an email
// assignee) to a channel, with a guard timer for the first attempt, in the dispatch transaction.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { Clock } from '../engine/clock.js';
import type { OutboxRow, OutboxSink } from '../engine/outbox/outbox-dispatcher.js';
import { APPROVAL_OPENED_EVENT } from '../engine/runtime/outbox.js';
import { schedule } from '../engine/scheduler/timer-store.js';
import { NOTIFICATION_QUEUED_EVENT } from '../nodes/commerce-notify.js';
import type { NotificationChannel } from './notification-channel.js';
import { isEmailAddress } from './email-address.js';
import { lockQueued } from './notification-store.js';
import { attemptTimerId, GUARD_MARGIN_MS, NOTIFICATION_TIMER_KIND, type NotificationTimerPayload } from './notification-timer.js';
import type { HandedOver, NotificationWorker } from './notification-worker.js';
import { approvalNotice } from './approval-notice.js';

export interface NotificationSinkDeps {
  clock: Clock;
  worker: NotificationWorker;
  /** The configured channels in order of preference (email first: a person is reached directly when possible). */
  channels: readonly NotificationChannel[];
  /** Why a message finds no channel when SMTP is not configured (appended to the channels' own reasons). */
  unconfigured: readonly string[];
  timeoutMs: number;
}

/** `ntf_` + 20 hex of SHA-256(outbox id): a redone dispatch writes the same approval notification, never a second. */
export function approvalNotificationId(outboxId: string): string {
  return `ntf_${createHash('sha256').update(`approval|${outboxId}`).digest('hex').slice(0, 20)}`;
}

export function notificationSink(deps: NotificationSinkDeps): OutboxSink {
  return {
    name: 'notifications',
    async handle(tx: PoolClient, rows: OutboxRow[]): Promise<void> {
      const ids: string[] = [];
      const sources: string[] = [];
      for (const row of rows) {
        if (row.event === NOTIFICATION_QUEUED_EVENT) {
          const listed = (row.data as { notificationIds?: unknown }).notificationIds;
          if (Array.isArray(listed)) ids.push(...listed.filter((x): x is string => typeof x === 'string'));
          sources.push(row.id);
        } else if (row.event === APPROVAL_OPENED_EVENT) {
          const notice = approvalNotice(row);
          if (!notice || !isEmailAddress(notice.assignee)) continue;
          const id = approvalNotificationId(row.id);
          await tx.query(
            `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, created_at, updated_at)
             VALUES ($1, $2, $3, 'approver', $4, $4, $5, $6, 'queued', $7, $7) ON CONFLICT (id) DO NOTHING`,
            [id, row.orderId, notice.nodeId, notice.assignee, notice.subject, notice.body, row.occurredAt],
          );
          ids.push(id);
          sources.push(row.id);
        }
      }
      const queued = await lockQueued(tx, ids);
      if (queued.length === 0) return;
      const now = deps.clock.now();
      const guardDueAt = now + deps.timeoutMs + GUARD_MARGIN_MS;
      const handed: HandedOver[] = [];
      for (const n of queued) {
        const reasons = [...deps.unconfigured];
        let chosen: NotificationChannel | null = null;
        for (const channel of deps.channels) {
          const refusal = await channel.refusal(tx, n);
          if (refusal === null) {
            chosen = channel;
            break;
          }
          reasons.push(refusal);
        }
        if (!chosen) {
          // Stays queued, visible in the order with the reason.
          await tx.query('UPDATE notifications SET last_error = $2, updated_at = $3 WHERE id = $1', [n.id, `Not sent: ${reasons.join('; ')}`, now]);
          continue;
        }
        await tx.query("UPDATE notifications SET status = 'pending', channel = $2, updated_at = $3 WHERE id = $1", [n.id, chosen.name, now]);
        await schedule(
          tx,
          {
            id: attemptTimerId(n.id, 1),
            kind: NOTIFICATION_TIMER_KIND,
            orderId: null,
            dueAt: guardDueAt,
            payload: { notificationId: n.id, attempt: 1 } satisfies NotificationTimerPayload,
          },
          now,
        );
        handed.push({ id: n.id, guardDueAt });
      }
      deps.worker.afterDispatch(sources, handed);
    },
  };
}

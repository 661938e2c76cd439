// Makes notification attempts through the chosen channel on the shared attempt worker: first attempts right after the
// dispatch commits, retries and lost attempts as durable timers, sent or failed recorded in the row and the order's timeline.
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TimerIndexEntry } from '../engine/scheduler/timer-index.js';
import { AttemptWorker, UNRECORDED_ERROR, type AttemptSink, type RecordedAttempt } from '../engine/outbox/attempt-worker.js';
import { appendTimeline } from '../engine/runtime/timeline.js';
import type { NotificationChannel } from './notification-channel.js';
import { lockNotification, type NotificationRow } from './notification-store.js';
import { NOTIFICATION_TIMER } from './notification-timer.js';

export interface NotificationWorkerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The configured channels by name. */
  channels: ReadonlyMap<string, NotificationChannel>;
  /** How long one attempt may take (OUTBOUND_TIMEOUT_MS): the guard timer waits past it. */
  timeoutMs: number;
  /** Indexes timers committed outside the runtime (the engine scheduler's notify). */
  notify(entries: TimerIndexEntry[]): Promise<void>;
}

/** A notification the dispatcher just handed to a channel. */
export interface HandedOver {
  id: string;
  guardDueAt: number;
}

const CHANNEL_LABEL = { email: 'Email', webhook: 'Webhook notification' } as const;

export class NotificationWorker extends AttemptWorker<NotificationRow, NotificationRow> {
  constructor(deps: NotificationWorkerDeps) {
    super(deps, notificationSink(deps));
  }

  /**
   * Called by the dispatcher after its transaction committed: indexes the guard timers and makes the first
   * attempts. Nothing here holds an order up: the order's own commit is long done.
   */
  handOver(handed: HandedOver[]): void {
    this.firstAttempts(handed);
  }
}

/** What notifications keep of their own: the `notifications` table, the row's channel, the order's timeline. */
function notificationSink(deps: NotificationWorkerDeps): AttemptSink<NotificationRow, NotificationRow> {
  return {
    label: 'notification',
    timer: NOTIFICATION_TIMER,
    lock: lockNotification,
    async begin(tx, row, n, now) {
      await tx.query('UPDATE notifications SET attempts = $2, last_attempt_at = $3, updated_at = $3 WHERE id = $1', [row.id, n, now]);
      return { ...row, attempts: n };
    },
    async send(row) {
      const channel = row.channel ? deps.channels.get(row.channel) : undefined;
      return channel ? channel.send(row) : { ok: false, error: `The ${row.channel} channel is not configured any more` };
    },
    record: (tx, attempt) => recordNotification(deps.logger, tx, attempt),
    async failUnrecorded(tx, row, now) {
      await tx.query(`UPDATE notifications SET status = 'failed', last_error = coalesce(last_error, $3), updated_at = $2 WHERE id = $1`, [
        row.id,
        now,
        UNRECORDED_ERROR,
      ]);
      await appendTimeline(tx, row.orderId, [failedEntry(row, now, UNRECORDED_ERROR, row.attempts)]);
    },
  };
}

/** Sent: the row and a `notification.sent` timeline entry; failed after the last attempt: `notification.failed`; else the error for the retry. */
async function recordNotification(logger: Logger, tx: Queryable, { row, attempt: n, outcome, error, now }: RecordedAttempt<NotificationRow>): Promise<void> {
  if (outcome === 'delivered') {
    await tx.query(`UPDATE notifications SET status = 'sent', last_error = NULL, sent_at = $2, updated_at = $2 WHERE id = $1`, [row.id, now]);
    const label = CHANNEL_LABEL[row.channel ?? 'email'];
    const to = row.address && row.address !== row.recipient ? `${row.recipient} <${row.address}>` : row.recipient;
    await appendTimeline(tx, row.orderId, [
      {
        at: now,
        kind: 'notification.sent',
        message: `${label} sent to ${to}: ${row.subject}`,
        nodeId: row.nodeId,
        data: { notificationId: row.id, channel: row.channel, audience: row.audience, recipient: row.recipient, attempts: n },
      },
    ]);
  } else if (outcome === 'failed') {
    await tx.query(`UPDATE notifications SET status = 'failed', last_error = $2, updated_at = $3 WHERE id = $1`, [row.id, error, now]);
    await appendTimeline(tx, row.orderId, [failedEntry(row, now, error ?? 'failed', n)]);
    logger.warn({ notificationId: row.id, orderId: row.orderId, channel: row.channel, attempts: n, error }, 'notification failed after its last attempt');
  } else await tx.query('UPDATE notifications SET last_error = $2, updated_at = $3 WHERE id = $1', [row.id, error, now]);
}

function failedEntry(row: NotificationRow, at: number, error: string, attempts: number) {
  return {
    at,
    kind: 'notification.failed',
    message: `Notification to ${row.recipient} not sent after ${attempts} attempts: ${error}`,
    nodeId: row.nodeId,
    data: { notificationId: row.id, channel: row.channel, audience: row.audience, recipient: row.recipient, attempts },
  };
}

// Makes notification attempts through the chosen channel: first attempts right after the dispatch commits, retries
// and lost attempts as durable timers (the webhook schedule), sent or failed recorded in the row and the order's timeline.
import { InFlight } from '../lib/in-flight.js';
import type { Db } from '../db/db.js';
import type { Clock } from '../engine/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TimerIndexEntry } from '../engine/scheduler/timer-index.js';
import { cancel as cancelTimer, claimAttemptTimer, getTimer, schedule } from '../engine/scheduler/timer-store.js';
import { KeyedQueue } from '../engine/runtime/keyed-queue.js';
import { appendTimeline } from '../engine/runtime/timeline.js';
import type { NotificationChannel, SendResult } from './notification-channel.js';
import { lockNotification, type NotificationRow } from './notification-store.js';
import { attemptTimerId, GUARD_MARGIN_MS, MAX_ATTEMPTS, NOTIFICATION_TIMER_KIND, retryDelay, type NotificationTimerPayload } from './notification-timer.js';

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

/** How long a stop waits for first attempts in flight (a SIGTERM must exit within 10 s). */
const STOP_GRACE_MS = 1_500;

const CHANNEL_LABEL = { email: 'Email', webhook: 'Webhook notification' } as const;

export class NotificationWorker {
  /** One attempt at a time per notification in this process: a second firer waits, then finds nothing to do. */
  private readonly perNotification = new KeyedQueue();
  private readonly inFlight = new InFlight();
  private dispatched: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: NotificationWorkerDeps) {}

  /**
   * Called by the dispatcher after its transaction committed: indexes the guard timers and makes the first
   * attempts. Nothing here holds an order up: the order's own commit is long done.
   */
  handOver(handed: HandedOver[]): void {
    if (handed.length === 0 || this.stopped) return;
    const run = this.dispatched.then(async () => {
      await this.deps.notify(handed.map((h) => ({ id: attemptTimerId(h.id, 1), dueAt: h.guardDueAt })));
      for (const h of handed) this.track(this.attempt(h.id, 1, 'direct'));
    });
    this.dispatched = run.catch((err) => this.deps.logger.error({ err }, 'notification first attempts failed'));
    this.track(this.dispatched);
  }

  /** The durable timer handler (kind `notification.delivery`): a retry, or a guard after a lost attempt. */
  async fireTimer(timerId: string): Promise<void> {
    const timer = await getTimer(this.deps.db, timerId);
    const payload = timer?.payload as NotificationTimerPayload | null | undefined;
    if (!payload?.notificationId || !payload.attempt) return;
    // Tracked, so idle() (the test clock's settle) also waits for attempts the scheduler's own loop started.
    const attempt = this.attempt(payload.notificationId, payload.attempt, 'timer');
    this.track(attempt);
    await attempt;
  }

  /** Resolves once every first attempt queued so far (and any queued meanwhile) has finished. */
  async idle(): Promise<void> {
    await this.inFlight.idle();
  }

  /** Stops making first attempts and waits for those in flight, at most `graceMs`; guard timers redo the rest after a restart. */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopped = true;
    await this.inFlight.settleWithin(graceMs);
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.track(p, (err) => this.deps.logger.error({ err }, 'notification attempt failed'));
  }

  /**
   * Attempt `n`. The claim (timer fired, attempts = n, a guard timer for n+1) commits before the send, so
   * no transaction stays open over the network and a crash mid-send is redone by the guard (at least once);
   * the result is recorded after it.
   */
  attempt(id: string, n: number, via: 'direct' | 'timer'): Promise<void> {
    return this.perNotification.run(id, async () => {
      const claim = await this.claim(id, n, via);
      if (!claim) return;
      await this.deps.notify([claim.guard]);
      const channel = claim.row.channel ? this.deps.channels.get(claim.row.channel) : undefined;
      const result: SendResult = channel
        ? await channel.send(claim.row).catch((err: Error) => ({ ok: false, error: err.message }))
        : { ok: false, error: `The ${claim.row.channel} channel is not configured any more` };
      const next = await this.record(claim.row, n, result);
      if (next) await this.deps.notify([next]);
    });
  }

  private async claim(id: string, n: number, via: 'direct' | 'timer'): Promise<{ row: NotificationRow; guard: TimerIndexEntry } | null> {
    const { db, clock } = this.deps;
    return db.tx(async (tx) => {
      const row = await lockNotification(tx, id);
      const timerId = attemptTimerId(id, n);
      const now = clock.now();
      if (!(await claimAttemptTimer(tx, timerId, via, now))) return null;
      if (!row || row.status !== 'pending' || row.attempts !== n - 1) return null;
      if (n > MAX_ATTEMPTS) {
        // The guard after the last attempt: that attempt's result was never recorded (a crash).
        await tx.query(
          `UPDATE notifications SET status = 'failed', last_error = coalesce(last_error, 'No result recorded for the last attempt'), updated_at = $2
            WHERE id = $1`,
          [id, now],
        );
        await appendTimeline(tx, row.orderId, [failedEntry(row, now, 'No result recorded for the last attempt', n - 1)]);
        return null;
      }
      await tx.query('UPDATE notifications SET attempts = $2, last_attempt_at = $3, updated_at = $3 WHERE id = $1', [id, n, now]);
      const guard = { id: attemptTimerId(id, n + 1), dueAt: now + this.deps.timeoutMs + (retryDelay(n) ?? 0) + GUARD_MARGIN_MS };
      await schedule(
        tx,
        { ...guard, kind: NOTIFICATION_TIMER_KIND, orderId: null, payload: { notificationId: id, attempt: n + 1 } satisfies NotificationTimerPayload },
        now,
      );
      return { row: { ...row, attempts: n }, guard };
    });
  }

  /** Records attempt `n`; returns the retry timer when one was moved to its due time. */
  private async record(claimed: NotificationRow, n: number, result: SendResult): Promise<TimerIndexEntry | null> {
    const { db, clock } = this.deps;
    return db.tx(async (tx) => {
      const row = await lockNotification(tx, claimed.id);
      if (!row || row.status !== 'pending' || row.attempts !== n) return null;
      const now = clock.now();
      const guardId = attemptTimerId(row.id, n + 1);
      const lastError = result.error ? result.error.slice(0, 1000) : null;
      if (result.ok) {
        await tx.query(`UPDATE notifications SET status = 'sent', last_error = NULL, sent_at = $2, updated_at = $2 WHERE id = $1`, [row.id, now]);
        await cancelTimer(tx, guardId, now);
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
        return null;
      }
      const delay = retryDelay(n);
      if (delay === null) {
        await tx.query(`UPDATE notifications SET status = 'failed', last_error = $2, updated_at = $3 WHERE id = $1`, [row.id, lastError, now]);
        await cancelTimer(tx, guardId, now);
        await appendTimeline(tx, row.orderId, [failedEntry(row, now, lastError ?? 'failed', n)]);
        this.deps.logger.warn({ notificationId: row.id, orderId: row.orderId, channel: row.channel, attempts: n, error: lastError }, 'notification failed after its last attempt');
        return null;
      }
      await tx.query('UPDATE notifications SET last_error = $2, updated_at = $3 WHERE id = $1', [row.id, lastError, now]);
      const dueAt = now + delay;
      const moved = await tx.query('UPDATE timers SET due_at = $2 WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [guardId, dueAt]);
      this.deps.logger.debug({ notificationId: row.id, attempt: n, error: lastError, retryAt: dueAt }, 'notification attempt failed; retry scheduled');
      return moved.rowCount ? { id: guardId, dueAt } : null;
    });
  }
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

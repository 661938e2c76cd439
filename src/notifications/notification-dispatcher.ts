// Hands committed notifications to a channel once (the notifications table is their outbox): woken after each
// commit on this node, polled for other nodes' commits, drained by the test clock; network work is the worker's.
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import { CoalescedRounds } from '../lib/coalesced-rounds.js';
import { schedule } from '../engine/scheduler/timer-store.js';
import { attemptTimer, guardDueAt } from '../engine/outbox/attempt-schedule.js';
import type { NotificationChannel } from './notification-channel.js';
import { lockUndispatched } from './notification-store.js';
import { writeApprovalNotifications } from './approval-notifications.js';
import { NOTIFICATION_TIMER } from './notification-timer.js';
import type { HandedOver, NotificationWorker } from './notification-worker.js';

export interface NotificationDispatcherOptions {
  db: Db;
  clock: Clock;
  worker: NotificationWorker;
  /** The configured channels in order of preference (email first: a person is reached directly when possible). */
  channels: readonly NotificationChannel[];
  /** Reasons no channel exists that the channels cannot say themselves (`SMTP_URL is not set`). */
  unconfigured: readonly string[];
  timeoutMs: number;
  onError(err: unknown): void;
  /** True while committed work may go out (the engine's outbox dispatcher runs); rounds pause otherwise. */
  active(): boolean;
  pollMs?: number;
  /** A wake-up waits this long so the commits made meanwhile share one round. */
  coalesceMs?: number;
}

const BATCH = 200;

export class NotificationDispatcher {
  private readonly rounds: CoalescedRounds;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: NotificationDispatcherOptions) {
    this.rounds = new CoalescedRounds({
      round: () =>
        this.serial(async () => {
          while ((await this.dispatchBatch()) === BATCH && this.rounds.started);
        }),
      onError: (err) => this.options.onError(err),
      active: () => this.options.active(),
      pollMs: options.pollMs ?? 1_000,
      coalesceMs: options.coalesceMs ?? 20,
    });
  }

  start(): void {
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds.stop();
  }

  /** Asks for a round soon (after a commit); wake-ups within coalesceMs share one. */
  wake(): void {
    this.rounds.wake();
  }

  /** Dispatches everything committed so far (the test clock calls this); runs after any round under way or due. */
  async drain(): Promise<void> {
    await this.serial(async () => {
      while ((await this.dispatchBatch()) === BATCH);
    });
  }

  /**
   * Rounds and drains run one after another: a drain never skips (SKIP LOCKED) rows a round holds and then
   * returns before that round handed them to the worker.
   */
  private serial(fn: () => Promise<void>): Promise<void> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * One transaction: writes the notifications of newly opened approvals, takes up to 200 undispatched rows
   * (skipping those another node holds), picks each one's channel, schedules its first attempt's guard timer
   * and marks it dispatched; after the commit the worker makes the first attempts.
   */
  private async dispatchBatch(): Promise<number> {
    const { db, clock } = this.options;
    const handed: HandedOver[] = [];
    const taken = await db.tx(async (tx) => {
      const now = clock.now();
      await writeApprovalNotifications(tx, now);
      const rows = await lockUndispatched(tx, BATCH);
      const firstGuardDueAt = guardDueAt(now, this.options.timeoutMs, 0);
      const unsent = new Map<string, string[]>();
      const refusals = new Map<NotificationChannel, (string | null)[]>();
      for (const channel of this.options.channels) refusals.set(channel, rows.length ? await channel.refusals(tx, rows) : []);
      for (const [i, n] of rows.entries()) {
        const reasons = [...this.options.unconfigured];
        let chosen: NotificationChannel | null = null;
        for (const channel of this.options.channels) {
          const refusal = refusals.get(channel)![i];
          if (refusal === null) {
            chosen = channel;
            break;
          }
          reasons.push(refusal);
        }
        if (!chosen) {
          // Stays queued, visible in the order with the reason (written below, one statement per reason).
          const reason = `Not sent: ${reasons.join('; ')}`;
          unsent.set(reason, [...(unsent.get(reason) ?? []), n.id]);
          continue;
        }
        await tx.query("UPDATE notifications SET status = 'pending', channel = $2, dispatched_at = $3, updated_at = $3 WHERE id = $1", [n.id, chosen.name, now]);
        await schedule(tx, attemptTimer(NOTIFICATION_TIMER, n.id, 1, firstGuardDueAt), now);
        handed.push({ id: n.id, guardDueAt: firstGuardDueAt });
      }
      for (const [reason, ids] of unsent)
        await tx.query('UPDATE notifications SET dispatched_at = $2, last_error = $3, updated_at = $2 WHERE id = ANY($1::text[])', [ids, now, reason]);
      return rows.length;
    });
    this.options.worker.handOver(handed);
    return taken;
  }
}

// Makes A2A push attempts: the first at once after the queuing commit, retries 10/20/40/80/160 s as durable timers.
import { InFlight } from '../lib/in-flight.js';
import type { Db } from '../db/db.js';
import type { Clock } from '../engine/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TimerIndexEntry } from '../engine/scheduler/timer-index.js';
import { cancel as cancelTimer, claimAttemptTimer, getTimer, schedule } from '../engine/scheduler/timer-store.js';
import { KeyedQueue } from '../engine/runtime/keyed-queue.js';
import { attemptTimerId, GUARD_MARGIN_MS, MAX_ATTEMPTS, retryDelay } from '../webhooks/delivery-schedule.js';
import { postOutbound, type OutboundPostOptions, type OutboundResult } from '../webhooks/outbound-post.js';
import type { A2aPushStore, PushTarget } from './a2a-push-store.js';
import { PUSH_TIMER_KIND, type QueuedPush } from './a2a-push-queue.js';

/** Spec "Limits": the first attempt (and each retry) waits at most 5 seconds for the receiver. */
export const PUSH_TIMEOUT_MS = 5_000;

/** Spec "A2A push": failed notifications are kept 7 days, then dropped (delivered ones too). */
export const PUSH_KEPT_MS = 7 * 24 * 3_600_000;

export interface PushWorkerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  configs: A2aPushStore;
  timeoutMs: number;
  allowLoopback: boolean;
  /** Indexes timers committed outside the runtime (the engine scheduler's notify). */
  notify(entries: TimerIndexEntry[]): Promise<void>;
  userAgent: string;
  resolve?: OutboundPostOptions['resolve'];
}

interface Delivery {
  id: string;
  taskId: string;
  configId: string;
  body: string;
  contentType: string;
  status: string;
  attempts: number;
}

/**
 * The same timing and bookkeeping as webhook deliveries (src/webhooks/delivery-worker.ts), over
 * `a2a_push_deliveries`: each attempt is claimed (timer fired, attempts = n, a guard timer for
 * n + 1) in a commit before the POST, so a crash mid-attempt still leads to the next one; the
 * result is recorded after it. Notifications of one task and config go out in queuing order.
 */
export class A2aPushWorker {
  private readonly perDelivery = new KeyedQueue();
  private readonly chains = new KeyedQueue();
  private readonly inFlight = new InFlight();
  private stopped = false;

  constructor(private readonly deps: PushWorkerDeps) {}

  /**
   * Called right after queuing, possibly before the transaction that wrote the rows commits: waits
   * on the task row (which that transaction holds locked) before it looks for them, so a rolled-back
   * change sends nothing.
   */
  afterQueued(pushes: QueuedPush[]): void {
    if (pushes.length === 0 || this.stopped) return;
    this.track(
      (async () => {
        await this.deps.db.query('SELECT 1 FROM a2a_tasks WHERE id = ANY($1::text[]) FOR SHARE', [[...new Set(pushes.map((p) => p.taskId))]]);
        await this.deps.notify(pushes.map((p) => ({ id: attemptTimerId(p.id, 1), dueAt: p.guardDueAt })));
        await Promise.all(pushes.map((p) => this.chains.run(`${p.taskId}|${p.configId}`, () => this.attempt(p.id, 1, 'direct'))));
      })(),
    );
  }

  /** The durable timer handler (kind `a2a.push`): a retry, or the guard of an attempt that never happened. */
  async fireTimer(timerId: string): Promise<void> {
    const timer = await getTimer(this.deps.db, timerId);
    const payload = timer?.payload as { deliveryId?: string; attempt?: number } | null | undefined;
    if (!payload?.deliveryId || !payload.attempt) return;
    await this.attempt(payload.deliveryId, payload.attempt, 'timer');
  }

  async idle(): Promise<void> {
    await this.inFlight.idle();
  }

  async stop(graceMs = 1_500): Promise<void> {
    this.stopped = true;
    await this.inFlight.settleWithin(graceMs);
  }

  /** Drops delivered and failed notifications older than 7 days (spec "A2A push"). */
  async dropOld(): Promise<number> {
    const res = await this.deps.db.query("DELETE FROM a2a_push_deliveries WHERE status <> 'pending' AND updated_at < $1", [this.deps.clock.now() - PUSH_KEPT_MS]);
    return res.rowCount ?? 0;
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.track(p, (err) => this.deps.logger.error({ err }, 'A2A push attempt failed'));
  }

  private attempt(deliveryId: string, n: number, via: 'direct' | 'timer'): Promise<void> {
    return this.perDelivery.run(deliveryId, async () => {
      const claim = await this.claim(deliveryId, n, via);
      if (!claim) return;
      await this.deps.notify([claim.guard]);
      const result = await this.post(claim.delivery, claim.target);
      const next = await this.record(deliveryId, n, result);
      if (next) await this.deps.notify([next]);
    });
  }

  private async claim(deliveryId: string, n: number, via: 'direct' | 'timer'): Promise<{ delivery: Delivery; target: PushTarget; guard: TimerIndexEntry } | null> {
    const { db, clock } = this.deps;
    return db.tx(async (tx) => {
      const delivery = await lock(tx, deliveryId);
      const timerId = attemptTimerId(deliveryId, n);
      const now = clock.now();
      if (!(await claimAttemptTimer(tx, timerId, via, now))) return null;
      if (!delivery || delivery.status !== 'pending' || delivery.attempts !== n - 1) return null;
      if (n > MAX_ATTEMPTS) {
        await tx.query(
          `UPDATE a2a_push_deliveries SET status = 'failed', last_error = coalesce(last_error, 'No result recorded for the last attempt'), updated_at = $2 WHERE id = $1`,
          [deliveryId, now],
        );
        return null;
      }
      const target = await this.deps.configs.target(tx, delivery.taskId, delivery.configId);
      if (!target) return null;
      await tx.query('UPDATE a2a_push_deliveries SET attempts = $2, updated_at = $3 WHERE id = $1', [deliveryId, n, now]);
      const guard = { id: attemptTimerId(deliveryId, n + 1), dueAt: now + this.deps.timeoutMs + (retryDelay(n) ?? 0) + GUARD_MARGIN_MS };
      await schedule(tx, { ...guard, kind: PUSH_TIMER_KIND, orderId: null, payload: { deliveryId, attempt: n + 1 } }, now);
      return { delivery, target, guard };
    });
  }

  /** Spec "Push notifications": `Authorization: <scheme> <credentials>`, else `X-A2A-Notification-Token`. */
  private async post(delivery: Delivery, target: PushTarget): Promise<OutboundResult> {
    const headers: Record<string, string> = { 'content-type': delivery.contentType, 'user-agent': this.deps.userAgent };
    if (target.authentication) headers.authorization = `${target.authentication.scheme} ${target.authentication.credentials}`;
    else if (target.token) headers['x-a2a-notification-token'] = target.token;
    try {
      return await postOutbound(target.url, headers, delivery.body, { timeoutMs: this.deps.timeoutMs, allowLoopback: this.deps.allowLoopback, resolve: this.deps.resolve });
    } catch (err) {
      return { ok: false, status: null, error: (err as Error).message };
    }
  }

  private async record(deliveryId: string, n: number, result: OutboundResult): Promise<TimerIndexEntry | null> {
    const { db, clock } = this.deps;
    return db.tx(async (tx) => {
      const delivery = await lock(tx, deliveryId);
      if (!delivery || delivery.status !== 'pending' || delivery.attempts !== n) return null;
      const now = clock.now();
      const guardId = attemptTimerId(deliveryId, n + 1);
      const lastError = result.error ? result.error.slice(0, 1000) : null;
      if (result.ok) {
        await tx.query(
          `UPDATE a2a_push_deliveries SET status = 'delivered', response_status = $2, last_error = NULL, delivered_at = $3, updated_at = $3 WHERE id = $1`,
          [deliveryId, result.status, now],
        );
        await cancelTimer(tx, guardId, now);
        return null;
      }
      const delay = retryDelay(n);
      if (delay === null) {
        await tx.query(`UPDATE a2a_push_deliveries SET status = 'failed', response_status = $2, last_error = $3, updated_at = $4 WHERE id = $1`, [
          deliveryId,
          result.status,
          lastError,
          now,
        ]);
        await cancelTimer(tx, guardId, now);
        return null;
      }
      await tx.query('UPDATE a2a_push_deliveries SET response_status = $2, last_error = $3, updated_at = $4 WHERE id = $1', [deliveryId, result.status, lastError, now]);
      const dueAt = now + delay;
      const moved = await tx.query('UPDATE timers SET due_at = $2 WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [guardId, dueAt]);
      return moved.rowCount ? { id: guardId, dueAt } : null;
    });
  }
}

async function lock(tx: { query: Db['query'] }, id: string): Promise<Delivery | null> {
  const { rows } = await tx.query('SELECT * FROM a2a_push_deliveries WHERE id = $1 FOR UPDATE', [id]);
  if (!rows.length) return null;
  const r = rows[0];
  return { id: r.id, taskId: r.task_id, configId: r.config_id, body: r.body, contentType: r.content_type, status: r.status, attempts: r.attempts };
}

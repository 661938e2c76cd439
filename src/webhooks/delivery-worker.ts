// Makes webhook delivery attempts: first attempts at once (in order per subscription and order), retries as
// durable timers, a signed POST each time, delivered on any 2xx, failed after the last retry.
import { InFlight } from '../lib/in-flight.js';
import type { Db } from '../db/db.js';
import type { Clock } from '../engine/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TimerIndexEntry } from '../engine/scheduler/timer-index.js';
import { cancel as cancelTimer, claimAttemptTimer, getTimer, schedule } from '../engine/scheduler/timer-store.js';
import { KeyedQueue } from '../engine/runtime/keyed-queue.js';
import { lockDelivery, type DeliveryRow } from './delivery-store.js';
import { attemptTimerId, DELIVERY_TIMER_KIND, GUARD_MARGIN_MS, MAX_ATTEMPTS, retryDelay } from './delivery-schedule.js';
import { subscriptionForSigning } from './subscription-store.js';
import { signatureHeader } from './signature.js';
import { postOutbound, type OutboundPostOptions, type OutboundResult } from './outbound-post.js';
import type { DeliveryObservation, EngineProbe } from '../engine/engine-probe.js';
import { injectTraceContext } from '../telemetry/trace-context.js';
import { withSpan } from '../telemetry/spans.js';

export interface DeliveryWorkerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  sealKey: Buffer;
  /** OUTBOUND_TIMEOUT_MS. */
  timeoutMs: number;
  /** OUTBOUND_ALLOW_LOOPBACK. */
  allowLoopback: boolean;
  /** Indexes timers committed outside the runtime (the engine scheduler's notify). */
  notify(entries: TimerIndexEntry[]): Promise<void>;
  userAgent: string;
  resolve?: OutboundPostOptions['resolve'];
  /** Told about every recorded attempt (delivery metrics). */
  probe?: EngineProbe;
}

/** A delivery just written by the sink, in creation order. */
export interface NewDelivery {
  id: string;
  seq: number;
  subscriptionId: string;
  orderId: string;
  guardDueAt: number;
}

/** The payload of a delivery timer. */
interface AttemptTimerPayload {
  deliveryId: string;
  attempt: number;
}

/** How long a stop waits for first attempts in flight (a SIGTERM must exit within 10 s, src/main.ts). */
const STOP_GRACE_MS = 1_500;

type Claim = { delivery: DeliveryRow; url: string; secret: string; guard: TimerIndexEntry | null };

export class DeliveryWorker {
  /** One attempt at a time per delivery in this process: a second firer waits and then finds the timer fired. */
  private readonly perDelivery = new KeyedQueue();
  /** First attempts of one subscription and order go out one after another, in creation order. */
  private readonly chains = new KeyedQueue();
  private readonly inFlight = new InFlight();
  private dispatched: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  /**
   * Called by the sink from inside the outbox dispatch transaction. Waits for that transaction
   * to commit (by waiting on the outbox rows it holds), then indexes the guard timers and makes
   * the first attempts. Batches are handled in the order they were dispatched.
   */
  afterDispatch(outboxIds: string[], deliveries: NewDelivery[]): void {
    if (deliveries.length === 0 || this.stopped) return;
    const run = this.dispatched.then(async () => {
      await this.deps.db.query('SELECT 1 FROM outbox WHERE id = ANY($1::text[]) FOR SHARE', [outboxIds]);
      await this.deps.notify(deliveries.map((d) => ({ id: attemptTimerId(d.id, 1), dueAt: d.guardDueAt })));
      for (const d of [...deliveries].sort((a, b) => a.seq - b.seq))
        this.track(this.chains.run(`${d.subscriptionId}|${d.orderId}`, () => this.attempt(d.id, 1, 'direct')));
    });
    this.dispatched = run.catch((err) => this.deps.logger.error({ err }, 'webhook first attempts failed'));
    this.track(this.dispatched);
  }

  /** The durable timer handler (kind `webhook.delivery`): a retry, or a guard after a lost attempt. */
  async fireTimer(timerId: string): Promise<void> {
    const timer = await getTimer(this.deps.db, timerId);
    const payload = timer?.payload as AttemptTimerPayload | null | undefined;
    if (!payload?.deliveryId || !payload.attempt) return;
    if (payload.attempt === 1) {
      // Guards of one commit's deliveries fall due together and fire in id order: a guard first makes the
      // never-attempted earlier deliveries of its subscription and order, in seq order, so none overtakes another.
      const { rows } = await this.deps.db.query<{ id: string; subscription_id: string; order_id: string }>(
        `SELECT d.id, d.subscription_id, d.order_id FROM webhook_deliveries d
           JOIN webhook_deliveries x ON x.id = $1 AND d.subscription_id = x.subscription_id AND d.order_id = x.order_id
          WHERE d.seq <= x.seq AND (d.attempts = 0 OR d.id = x.id) ORDER BY d.seq`,
        [payload.deliveryId],
      );
      if (rows.length === 0) return;
      await this.chains.run(`${rows[0].subscription_id}|${rows[0].order_id}`, async () => {
        for (const r of rows) await this.attempt(r.id, 1, 'timer');
      });
      return;
    }
    await this.attempt(payload.deliveryId, payload.attempt, 'timer');
  }

  /** Resolves once every first attempt queued so far (and any queued meanwhile) has finished. */
  async idle(): Promise<void> {
    await this.inFlight.idle();
  }

  /**
   * Stops making first attempts and waits for those in flight, at most `graceMs`: an attempt still hanging
   * then (a receiver that does not answer) must not hold the shutdown for the outbound timeout. Its claim
   * committed before the POST, so its guard timer makes it again after a restart, with the same id.
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopped = true;
    await this.inFlight.settleWithin(graceMs);
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.track(p, (err) => this.deps.logger.error({ err }, 'webhook delivery attempt failed'));
  }

  /**
   * Attempt `n` of a delivery. The claim (timer fired, attempts = n, a guard timer for n+1)
   * commits before the POST, so no transaction stays open over the network; the result is
   * recorded after it. A timer whose attempt already happened, or a deleted subscription,
   * makes this a no-op.
   */
  attempt(deliveryId: string, n: number, via: 'direct' | 'timer'): Promise<void> {
    return this.perDelivery.run(deliveryId, async () => {
      const claim = await this.claim(deliveryId, n, via);
      if (!claim) return;
      if (claim.guard) await this.deps.notify([claim.guard]);
      const result = await this.post(claim);
      const next = await this.record(deliveryId, n, result);
      if (next) await this.deps.notify([next]);
    });
  }

  private async claim(deliveryId: string, n: number, via: 'direct' | 'timer'): Promise<Claim | null> {
    const { db, clock } = this.deps;
    return db.tx(async (tx) => {
      const delivery = await lockDelivery(tx, deliveryId);
      const timerId = attemptTimerId(deliveryId, n);
      const now = clock.now();
      if (!(await claimAttemptTimer(tx, timerId, via, now))) return null;
      if (!delivery || delivery.status !== 'pending' || delivery.attempts !== n - 1) return null;
      if (n > MAX_ATTEMPTS) {
        // The guard after the last attempt: that attempt's result was never recorded (a crash).
        await tx.query(
          `UPDATE webhook_deliveries SET status = 'failed', last_error = coalesce(last_error, 'No result recorded for the last attempt'),
             updated_at = $2 WHERE id = $1`,
          [deliveryId, now],
        );
        return null;
      }
      const sub = await subscriptionForSigning(tx, this.deps.sealKey, delivery.subscriptionId);
      if (!sub) return null;
      await tx.query('UPDATE webhook_deliveries SET attempts = $2, last_attempt_at = $3, updated_at = $3 WHERE id = $1', [deliveryId, n, now]);
      const guard = { id: attemptTimerId(deliveryId, n + 1), dueAt: now + this.deps.timeoutMs + (retryDelay(n) ?? 0) + GUARD_MARGIN_MS };
      await schedule(tx, { ...guard, kind: DELIVERY_TIMER_KIND, orderId: null, payload: { deliveryId, attempt: n + 1 } satisfies AttemptTimerPayload }, now);
      return { delivery, url: sub.url, secret: sub.secret, guard };
    });
  }

  private async post(claim: Claim): Promise<OutboundResult> {
    const { delivery } = claim;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': this.deps.userAgent,
      'x-service-signature': signatureHeader(claim.secret, this.deps.clock.now(), delivery.body),
      'x-service-event': delivery.event,
      'x-service-delivery': delivery.id,
    };
    // With tracing on, the attempt is a span and the receiver gets its W3C `traceparent` (docs/operations.md "Traces").
    return withSpan('webhook.deliver', { 'webhook.delivery_id': delivery.id, 'webhook.event': delivery.event }, async () => {
      injectTraceContext(headers);
      try {
        return await postOutbound(claim.url, headers, delivery.body, {
          timeoutMs: this.deps.timeoutMs,
          allowLoopback: this.deps.allowLoopback,
          resolve: this.deps.resolve,
        });
      } catch (err) {
        return { ok: false, status: null, error: (err as Error).message };
      }
    });
  }

  /** Records attempt `n`; returns the retry timer when one was moved to its due time. */
  private async record(deliveryId: string, n: number, result: OutboundResult): Promise<TimerIndexEntry | null> {
    const { db, clock } = this.deps;
    let outcome: DeliveryObservation['outcome'] | null = null;
    const retry = await db.tx(async (tx) => {
      const delivery = await lockDelivery(tx, deliveryId);
      if (!delivery || delivery.status !== 'pending' || delivery.attempts !== n) return null;
      outcome = result.ok ? 'delivered' : retryDelay(n) === null ? 'failed' : 'retry';
      const now = clock.now();
      const guardId = attemptTimerId(deliveryId, n + 1);
      const lastError = result.error ? result.error.slice(0, 1000) : null;
      if (result.ok) {
        await tx.query(
          `UPDATE webhook_deliveries SET status = 'delivered', response_status = $2, last_error = NULL, delivered_at = $3, updated_at = $3
            WHERE id = $1`,
          [deliveryId, result.status, now],
        );
        await cancelTimer(tx, guardId, now);
        return null;
      }
      const delay = retryDelay(n);
      if (delay === null) {
        await tx.query(
          `UPDATE webhook_deliveries SET status = 'failed', response_status = $2, last_error = $3, updated_at = $4 WHERE id = $1`,
          [deliveryId, result.status, lastError, now],
        );
        await cancelTimer(tx, guardId, now);
        return null;
      }
      await tx.query('UPDATE webhook_deliveries SET response_status = $2, last_error = $3, updated_at = $4 WHERE id = $1', [
        deliveryId,
        result.status,
        lastError,
        now,
      ]);
      const dueAt = now + delay;
      const moved = await tx.query('UPDATE timers SET due_at = $2 WHERE id = $1 AND fired_at IS NULL AND cancelled_at IS NULL', [guardId, dueAt]);
      this.deps.logger.debug({ deliveryId, attempt: n, error: lastError, retryAt: dueAt }, 'webhook delivery attempt failed; retry scheduled');
      return moved.rowCount ? { id: guardId, dueAt } : null;
    });
    if (outcome) this.deps.probe?.emit('delivery', { outcome, attempt: n });
    return retry;
  }
}

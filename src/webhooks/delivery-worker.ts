// Makes webhook delivery attempts on the shared attempt worker: first attempts at once (in order per subscription and
// order), retries as durable timers, a signed POST each time, delivered on any 2xx, failed after the last retry.
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TimerIndexEntry } from '../engine/scheduler/timer-index.js';
import { AttemptWorker, type AttemptResult, type AttemptSink } from '../engine/outbox/attempt-worker.js';
import { lockDelivery, type DeliveryRow } from './delivery-store.js';
import { DELIVERY_TIMER } from './delivery-schedule.js';
import { subscriptionForSigning } from './subscription-store.js';
import { signatureHeader } from './signature.js';
import { failUnrecordedPost, recordPostAttempt } from './post-attempt-record.js';
import { postOutbound, type OutboundPostOptions } from './outbound-post.js';
import type { EngineProbe } from '../engine/engine-probe.js';
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

/** One attempt's POST: the delivery and its subscription's URL and opened secret. */
interface DeliveryPost {
  delivery: DeliveryRow;
  url: string;
  secret: string;
}

export class DeliveryWorker extends AttemptWorker<DeliveryRow, DeliveryPost> {
  constructor(private readonly webhookDeps: DeliveryWorkerDeps) {
    super(webhookDeps, deliverySink(webhookDeps));
  }

  /**
   * Called by the sink from inside the outbox dispatch transaction. Waits for that transaction
   * to commit (by waiting on the outbox rows it holds), then indexes the guard timers and makes
   * the first attempts, in creation order per subscription and order.
   */
  afterDispatch(outboxIds: string[], deliveries: NewDelivery[]): void {
    const ordered = [...deliveries].sort((a, b) => a.seq - b.seq);
    this.firstAttempts(
      ordered.map((d) => ({ id: d.id, guardDueAt: d.guardDueAt, chain: `${d.subscriptionId}|${d.orderId}` })),
      () => this.webhookDeps.db.query('SELECT 1 FROM outbox WHERE id = ANY($1::text[]) FOR SHARE', [outboxIds]),
    );
  }
}

/** What webhook deliveries keep of their own: `webhook_deliveries`, the subscription's URL and secret, the signed POST. */
function deliverySink(deps: DeliveryWorkerDeps): AttemptSink<DeliveryRow, DeliveryPost> {
  return {
    label: 'webhook delivery',
    timer: DELIVERY_TIMER,
    lock: lockDelivery,
    async begin(tx, delivery, n, now) {
      // A deleted subscription: nothing to send to.
      const sub = await subscriptionForSigning(tx, deps.sealKey, delivery.subscriptionId);
      if (!sub) return null;
      await tx.query('UPDATE webhook_deliveries SET attempts = $2, last_attempt_at = $3, updated_at = $3 WHERE id = $1', [delivery.id, n, now]);
      return { delivery, url: sub.url, secret: sub.secret };
    },
    send: (job) => post(deps, job),
    record: (tx, attempt) => recordPostAttempt(tx, 'webhook_deliveries', attempt),
    failUnrecorded: (tx, row, now) => failUnrecordedPost(tx, 'webhook_deliveries', row.id, now),
    recorded: (outcome, attempt) => deps.probe?.emit('delivery', { outcome, attempt }),
    chainBefore: earlierUnattempted,
  };
}

/**
 * The deliveries of a first attempt's subscription and order not attempted yet, up to and including it, in
 * seq order: a guard firing makes the earlier ones first, so none overtakes another.
 */
async function earlierUnattempted(q: Queryable, id: string): Promise<{ chain: string; ids: string[] } | null> {
  const { rows } = await q.query<{ id: string; subscription_id: string; order_id: string }>(
    `SELECT d.id, d.subscription_id, d.order_id FROM webhook_deliveries d
       JOIN webhook_deliveries x ON x.id = $1 AND d.subscription_id = x.subscription_id AND d.order_id = x.order_id
      WHERE d.seq <= x.seq AND (d.attempts = 0 OR d.id = x.id) ORDER BY d.seq`,
    [id],
  );
  return rows.length ? { chain: `${rows[0].subscription_id}|${rows[0].order_id}`, ids: rows.map((r) => r.id) } : null;
}

/** The signed POST of one attempt (spec "Delivery format"); a throw is the worker's failed attempt. */
function post(deps: DeliveryWorkerDeps, { delivery, url, secret }: DeliveryPost): Promise<AttemptResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': deps.userAgent,
    'x-service-signature': signatureHeader(secret, deps.clock.now(), delivery.body),
    'x-service-event': delivery.event,
    'x-service-delivery': delivery.id,
  };
  // With tracing on, the attempt is a span and the receiver gets its W3C `traceparent` (docs/operations.md "Traces").
  return withSpan('webhook.deliver', { 'webhook.delivery_id': delivery.id, 'webhook.event': delivery.event }, async () => {
    injectTraceContext(headers);
    return postOutbound(url, headers, delivery.body, { timeoutMs: deps.timeoutMs, allowLoopback: deps.allowLoopback, resolve: deps.resolve });
  });
}

// Makes A2A push attempts on the shared attempt worker: the first at once after the queuing commit, retries 10/20/40/80/160 s as durable timers.
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../logging/logger.js';
import type { TimerIndexEntry } from '../engine/scheduler/timer-index.js';
import { AttemptWorker, type AttemptResult, type AttemptSink } from '../engine/outbox/attempt-worker.js';
import { failUnrecordedPost, recordPostAttempt } from '../webhooks/post-attempt-record.js';
import { postOutbound, type OutboundPostOptions } from '../webhooks/outbound-post.js';
import type { A2aPushStore, PushTarget } from './a2a-push-store.js';
import { PUSH_TIMER, type QueuedPush } from './a2a-push-queue.js';

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

/** One attempt's POST: the notification and its config's URL and opened credentials. */
interface PushPost {
  delivery: Delivery;
  target: PushTarget;
}

/**
 * The webhook timing and bookkeeping (the shared attempt worker) over `a2a_push_deliveries`: each attempt is
 * claimed (timer fired, attempts = n, a guard timer for n + 1) in a commit before the POST, so a crash
 * mid-attempt still leads to the next one; the result is recorded after it. Notifications of one task and
 * config go out in queuing order.
 */
export class A2aPushWorker extends AttemptWorker<Delivery, PushPost> {
  constructor(private readonly pushDeps: PushWorkerDeps) {
    super(pushDeps, pushSink(pushDeps));
  }

  /**
   * Called right after queuing, possibly before the transaction that wrote the rows commits: waits
   * on the task row (which that transaction holds locked) before it looks for them, so a rolled-back
   * change sends nothing.
   */
  afterQueued(pushes: QueuedPush[]): void {
    const taskIds = [...new Set(pushes.map((p) => p.taskId))];
    this.firstAttempts(
      pushes.map((p) => ({ id: p.id, guardDueAt: p.guardDueAt, chain: `${p.taskId}|${p.configId}` })),
      () => this.pushDeps.db.query('SELECT 1 FROM a2a_tasks WHERE id = ANY($1::text[]) FOR SHARE', [taskIds]),
    );
  }

  /** Drops delivered and failed notifications older than 7 days (spec "A2A push"). */
  async dropOld(): Promise<number> {
    const res = await this.pushDeps.db.query("DELETE FROM a2a_push_deliveries WHERE status <> 'pending' AND updated_at < $1", [
      this.pushDeps.clock.now() - PUSH_KEPT_MS,
    ]);
    return res.rowCount ?? 0;
  }
}

/** What A2A push keeps of its own: `a2a_push_deliveries`, the task's push config, the A2A authentication headers. */
function pushSink(deps: PushWorkerDeps): AttemptSink<Delivery, PushPost> {
  return {
    label: 'A2A push',
    timer: PUSH_TIMER,
    lock,
    async begin(tx, delivery, n, now) {
      // A deleted config: nothing to send to.
      const target = await deps.configs.target(tx, delivery.taskId, delivery.configId);
      if (!target) return null;
      await tx.query('UPDATE a2a_push_deliveries SET attempts = $2, updated_at = $3 WHERE id = $1', [delivery.id, n, now]);
      return { delivery, target };
    },
    send: (job) => post(deps, job),
    record: (tx, attempt) => recordPostAttempt(tx, 'a2a_push_deliveries', attempt),
    failUnrecorded: (tx, row, now) => failUnrecordedPost(tx, 'a2a_push_deliveries', row.id, now),
  };
}

/** Spec "Push notifications": `Authorization: <scheme> <credentials>`, else `X-A2A-Notification-Token`. */
function post(deps: PushWorkerDeps, { delivery, target }: PushPost): Promise<AttemptResult> {
  const headers: Record<string, string> = { 'content-type': delivery.contentType, 'user-agent': deps.userAgent };
  if (target.authentication) headers.authorization = `${target.authentication.scheme} ${target.authentication.credentials}`;
  else if (target.token) headers['x-a2a-notification-token'] = target.token;
  return postOutbound(target.url, headers, delivery.body, { timeoutMs: deps.timeoutMs, allowLoopback: deps.allowLoopback, resolve: deps.resolve });
}

async function lock(q: Queryable, id: string): Promise<Delivery | null> {
  const { rows } = await q.query<{ id: string; task_id: string; config_id: string; body: string; content_type: string; status: string; attempts: number }>(
    'SELECT * FROM a2a_push_deliveries WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!rows.length) return null;
  const r = rows[0];
  return { id: r.id, taskId: r.task_id, configId: r.config_id, body: r.body, contentType: r.content_type, status: r.status, attempts: r.attempts };
}

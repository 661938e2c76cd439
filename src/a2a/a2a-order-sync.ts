// Keeps tasks in step with the orders they follow after their request ended: change notices, the outbox, a sweep.
import type { PoolClient } from 'pg';
import type { EventEmitter } from 'node:events';
import type { OutboxRow, OutboxSink } from '../engine/outbox/outbox-dispatcher.js';
import type { OrderChange } from '../engine/runtime/order-runtime.js';
import type { Logger } from '../logging/logger.js';
import type { A2aPushWorker } from './a2a-push-worker.js';
import type { QueuedPush } from './a2a-push-queue.js';
import type { A2aTaskStore } from './a2a-task-store.js';
import { FINAL_STATES, stateName } from './a2a-task-states.js';

/** How often the sweep catches up with changes whose notice was lost (a crash between commit and notice). */
export const SWEEP_MS = 30_000;

const FINAL_NAMES = [...FINAL_STATES].map(stateName);

/**
 * Change notices are gathered this long and looked up in one query: most orders have no task
 * following them, and one lookup per change was a statement per slice on the hot path.
 */
export const NOTICE_BATCH_MS = 100;

/** Order events that end an order: their outbox rows carry the final status durably. */
const ENDING_EVENTS = new Set(['order.completed', 'order.declined', 'order.cancelled', 'order.failed']);

/**
 * Three triggers, one idempotent refresh (A2aTaskStore.refresh: a new status is stored and queued
 * for push in one transaction, the same status is never queued twice):
 * - this node's change notices (`local`), for every change of a followed order (status, waits),
 *   gathered for NOTICE_BATCH_MS and looked up together;
 * - the outbox: an order's ending event refreshes its tasks inside the dispatch transaction, so
 *   the final status is pushed even when the process died right after the order's commit;
 * - a sweep every 30 s (and after each test-clock advance) for any change whose notice was lost.
 * Tasks a request is following right now are left to that request.
 */
export class A2aOrderSync {
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  /** Orders changed since the last lookup, and the lookup waiting to run for them. */
  private changed = new Set<string>();
  private batch: Promise<void> | null = null;
  private readonly onChange = (change: OrderChange | undefined) => {
    if (!change || typeof change.orderId !== 'string') return;
    this.changed.add(change.orderId);
    if (this.batch) return;
    this.batch = new Promise<void>((resolve) => setTimeout(resolve, NOTICE_BATCH_MS)).then(() => {
      const orders = [...this.changed];
      this.changed = new Set();
      this.batch = null;
      return this.refreshOrders(orders);
    });
    this.track(this.batch);
  };

  constructor(
    private readonly deps: {
      store: A2aTaskStore;
      worker: A2aPushWorker;
      changes: EventEmitter;
      logger: Logger;
      following: ReadonlySet<string>;
    },
  ) {}

  start(): void {
    this.deps.changes.on('local', this.onChange);
    this.timer = setInterval(() => this.track(this.sweep()), SWEEP_MS);
    this.timer.unref();
    this.track(this.sweep());
  }

  async stop(): Promise<void> {
    this.deps.changes.off('local', this.onChange);
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Catches up every stale task, drops week-old notifications and tasks finished 90 days ago. */
  async sweep(): Promise<void> {
    while ((await this.deps.store.refreshStale()) === 200);
    await this.deps.worker.dropOld();
    await this.deps.store.purgeFinished();
  }

  sink(): OutboxSink {
    return {
      name: 'a2a',
      handle: async (tx: PoolClient, rows: OutboxRow[]) => {
        const orders = [...new Set(rows.filter((r) => ENDING_EVENTS.has(r.event)).map((r) => r.orderId))];
        if (orders.length === 0) return;
        const { rows: tasks } = await tx.query<{ id: string }>('SELECT id FROM a2a_tasks WHERE order_id = ANY($1::text[]) AND state <> ALL($2::text[])', [orders, FINAL_NAMES]);
        const queued: QueuedPush[] = [];
        for (const t of tasks) queued.push(...(await this.deps.store.refreshIn(tx, t.id)));
        // The worker waits on the task rows this transaction holds, so it sends only once the dispatch committed.
        this.deps.worker.afterQueued(queued);
      },
    };
  }

  private async refreshOrders(orderIds: readonly string[]): Promise<void> {
    const { rows } = await this.deps.store.followersOf(orderIds);
    for (const r of rows) if (!this.deps.following.has(r.id)) await this.deps.store.refresh(r.id);
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.catch((err) => this.deps.logger.error({ err }, 'A2A task sync failed')).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}

// What ties a return to its order after either changes (contract 18): a return that ended wakes its order; an order ended unsold cancels its open returns.
import type { Db } from '../db/db.js';
import type { Engine } from '../engine/engine-module.js';
import type { OrderChange } from '../engine/runtime/order-runtime.js';
import { isFinished } from '../engine/runtime/run-row.js';
import { DomainError } from '../domain/errors.js';
import type { Logger } from '../logging/logger.js';

/** The business event a return's end delivers to its order (the marketplace payout waits for it, `commerce.returns_check`; index `order_waits_return_ended_idx`). */
export const RETURN_ENDED_EVENT = 'return.ended';

/** The cancel reason of a return whose order ended without the sale standing. */
export const parentEndedReason = (orderId: string, status: string) => `Order ${orderId} ${status.replace('_', ' ')}`;

/** How many links one sweep settles at most (the next sweep takes the rest). */
const SWEEP_BATCH = 100;

/**
 * Keeps returns and their orders in step, in two places that do the same thing:
 * - after each commit on this node (the runtime's `local` change notice): a return that ended
 *   delivers `return.ended` to its order (a no-op unless the order waits for it), and an order that
 *   ended cancelled, failed, rolled back or declined cancels its open returns;
 * - `sweep()` (every minute, at start and after each move of the test clock): the same for any
 *   notice a crash lost between the commit and the follow-up, found in the tables.
 * Either is a command of its own on the other order, after the first one committed: a return and
 * its order never hold each other's lock.
 */
export class ReturnLinks {
  private readonly onLocal = (change: OrderChange) => void this.follow(change);

  constructor(private readonly deps: { db: Db; engine: Engine; logger: Logger }) {}

  start(): void {
    this.deps.engine.runtime.changes.on('local', this.onLocal);
  }

  stop(): void {
    this.deps.engine.runtime.changes.off('local', this.onLocal);
  }

  /** The follow-up of one committed change; failures are logged (the sweep tries again). */
  async follow(change: OrderChange): Promise<void> {
    if (!isFinished(change.status)) return;
    try {
      // The change's related order is a return's order (the orders subject says so: order-subject.ts).
      if (change.related) await this.wake(change.related, change.orderId, change.status);
      else if (change.status !== 'completed') await this.cancelReturnsOf(change.orderId, change.status);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, orderId: change.orderId }, 'return link follow-up failed');
    }
  }

  /** Tells order `orderId` that one of its returns ended: delivered only when it waits for it. */
  private async wake(orderId: string, returnId: string, status: string): Promise<void> {
    await this.deps.engine.runtime.deliverEvent(orderId, RETURN_ENDED_EVENT, { returnId, status });
  }

  /** Cancels the open returns of `orderId`, which ended `status` (a return that ended meanwhile is left as it is). */
  private async cancelReturnsOf(orderId: string, status: string): Promise<void> {
    const { rows } = await this.deps.db.query<{ id: string }>(
      `SELECT id FROM orders WHERE return_of = $1 AND status IN ('queued', 'running', 'waiting') ORDER BY created_at, id`,
      [orderId],
    );
    for (const r of rows) await this.cancelReturn(r.id, parentEndedReason(orderId, status));
  }

  private async cancelReturn(returnId: string, reason: string): Promise<void> {
    try {
      await this.deps.engine.runtime.cancel(returnId, reason);
    } catch (err) {
      // It ended between the read and the cancel: nothing left to do.
      if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
    }
  }

  /**
   * Settles what the notices may have missed: open returns of orders that ended unsold are
   * cancelled, and orders waiting for `return.ended` with no return open any more get it.
   * Answers how many it settled.
   */
  async sweep(): Promise<number> {
    const { db } = this.deps;
    const orphans = await db.query<{ id: string; order_id: string; order_status: string }>(
      `SELECT r.id, p.id AS order_id, p.status AS order_status
         FROM orders r JOIN orders p ON p.id = r.return_of
        WHERE r.return_of IS NOT NULL AND r.status IN ('queued', 'running', 'waiting') AND p.status IN ('cancelled', 'failed', 'rolled_back', 'declined')
        ORDER BY r.created_at LIMIT $1`,
      [SWEEP_BATCH],
    );
    for (const r of orphans.rows) await this.cancelReturn(r.id, parentEndedReason(r.order_id, r.order_status));
    const held = await db.query<{ order_id: string }>(
      `SELECT DISTINCT w.order_id FROM order_waits w
        WHERE w.status = 'open' AND w.event = 'return.ended'
          AND NOT EXISTS (SELECT 1 FROM orders r WHERE r.return_of = w.order_id AND r.status IN ('queued', 'running', 'waiting'))
        LIMIT $1`,
      [SWEEP_BATCH],
    );
    let woken = 0;
    for (const w of held.rows) if ((await this.deps.engine.runtime.deliverEvent(w.order_id, RETURN_ENDED_EVENT, { swept: true })).delivered) woken++;
    return orphans.rows.length + woken;
  }
}

// The daily stock review as a durable timer kind that re-schedules itself (06:00 UTC each day).
import type { Db } from '../db/db.js';
import type { Clock } from '../platform/clock.js';
import type { Scheduler } from '../engine/scheduler/scheduler.js';
import * as timerStore from '../engine/scheduler/timer-store.js';
import { runStockReview, type StockReviewDeps } from './stock-review.js';

export const STOCK_REVIEW_TIMER_KIND = 'commerce.stock_review';

const DAY_MS = 86_400_000;
/** Time of day the review runs, in ms after UTC midnight. */
const REVIEW_AT_MS = 6 * 3_600_000;

/** The first review time strictly after `now`. */
export function nextReviewAt(now: number): number {
  const today = Math.floor(now / DAY_MS) * DAY_MS + REVIEW_AT_MS;
  return today > now ? today : today + DAY_MS;
}

const timerId = (dueAt: number) => `stock-review:${dueAt}`;

export interface StockReviewJobDeps extends StockReviewDeps {
  db: Db;
  clock: Clock;
  scheduler: Scheduler;
}

/** Schedules the next review unless one is already pending (idempotent across nodes: the id is the due time). */
export async function ensureStockReviewScheduled(deps: StockReviewJobDeps): Promise<void> {
  const pending = await deps.db.query(`SELECT 1 FROM timers WHERE kind = $1 AND fired_at IS NULL AND cancelled_at IS NULL LIMIT 1`, [STOCK_REVIEW_TIMER_KIND]);
  if (pending.rows.length > 0) return;
  const dueAt = nextReviewAt(deps.clock.now());
  if (await timerStore.schedule(deps.db, { id: timerId(dueAt), kind: STOCK_REVIEW_TIMER_KIND, dueAt }, deps.clock.now()))
    await deps.scheduler.notify([{ id: timerId(dueAt), dueAt }]);
}

/** The timer handler: claims the timer once, runs the review, schedules the next day's. */
export function stockReviewTimerHandler(deps: StockReviewJobDeps): (id: string) => Promise<void> {
  return async (id) => {
    const claimed = await deps.db.tx(async (tx) => {
      const timer = await timerStore.claimForFiring(tx, id, deps.clock.now());
      if (!timer) return null;
      await timerStore.markFired(tx, id, deps.clock.now());
      // The same time tomorrow; after downtime that is already past, so the next one from now.
      const dueAt = timer.dueAt + DAY_MS > deps.clock.now() ? timer.dueAt + DAY_MS : nextReviewAt(deps.clock.now());
      await timerStore.schedule(tx, { id: timerId(dueAt), kind: STOCK_REVIEW_TIMER_KIND, dueAt }, deps.clock.now());
      return { dueAt };
    });
    if (!claimed) return;
    await deps.scheduler.notify([{ id: timerId(claimed.dueAt), dueAt: claimed.dueAt }]);
    await runStockReview(deps);
  };
}

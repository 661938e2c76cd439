// Commerce module: the marketplace read operations (seller orders, payouts) and the daily stock review job.
import type { ServiceModule } from './service-module.js';
import { marketplaceOperations } from '../application/operations/marketplace-operations.js';
import { ensureStockReviewScheduled, stockReviewTimerHandler, STOCK_REVIEW_TIMER_KIND } from '../orders/stock-review-job.js';

export const commerceModule: ServiceModule = (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the commerce module needs the engine module first');
  const deps = { db: ctx.db, clock: ctx.clock, runtime: engine.runtime, scheduler: engine.scheduler, logger: ctx.logger };
  ctx.operations.add(...marketplaceOperations({ db: ctx.db }));
  engine.timerHandlers.set(STOCK_REVIEW_TIMER_KIND, stockReviewTimerHandler(deps));
  return {
    start: () => ensureStockReviewScheduled(deps),
  };
};

// Commerce module: the marketplace and back-office operations (seller orders, sellers, products, payouts, stock review), the agents' catalogue tools over them, and the daily stock review job.
import type { ServiceModule } from './service-module.js';
import { marketplaceOperations } from '../application/operations/marketplace-operations.js';
import { backOfficeOperations } from '../application/operations/back-office-operations.js';
import { agentCatalogueTools } from '../application/operations/agent-catalogue-tools.js';
import { ensureStockReviewScheduled, stockReviewTimerHandler, STOCK_REVIEW_TIMER_KIND } from '../orders/stock-review-job.js';

export const commerceModule: ServiceModule = (ctx) => {
  const engine = ctx.engine;
  if (!engine) throw new Error('the commerce module needs the engine module first');
  const deps = { db: ctx.db, clock: ctx.clock, runtime: engine.runtime, scheduler: engine.scheduler, logger: ctx.logger };
  const backOffice = backOfficeOperations({ db: ctx.db, clock: ctx.clock, logger: ctx.logger, runtime: engine.runtime });
  // find_products and run_stock_review adapt these very objects (src/application/agent-tool.ts).
  ctx.operations.add(...marketplaceOperations({ db: ctx.db }), ...Object.values(backOffice), ...agentCatalogueTools(backOffice));
  engine.timerHandlers.set(STOCK_REVIEW_TIMER_KIND, stockReviewTimerHandler(deps));
  return {
    start: () => ensureStockReviewScheduled(deps),
  };
};

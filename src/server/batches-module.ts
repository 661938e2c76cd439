// Batches module (contract 16): the batch operations and the batch worker every node runs (started and stopped with the service).
import type { ServiceModule } from './service-module.js';
import { detectSearchMode } from '../orders/order-search.js';
import { batchOperations } from '../application/operations/batch-operations.js';
import { BatchWorker } from '../application/batches/batch-worker.js';

export const batchesModule: ServiceModule = async (ctx) => {
  const { db, clock, logger } = ctx;
  const searchMode = await detectSearchMode(db);
  const worker = new BatchWorker({ db, clock, logger: logger.child({ component: 'batches' }), registry: () => ctx.operations, ...ctx.startOptions.batches });
  // The batch operations read their roles from the order operations: the orders module registers those first.
  ctx.operations.add(
    ...Object.values(
      batchOperations({ db, clock, logger, searchMode: () => searchMode, registry: () => ctx.operations, onRunnable: () => worker.wake() }),
    ),
  );
  return {
    start: () => {
      worker.start();
      return Promise.resolve();
    },
    stop: () => worker.stop(),
  };
};

// Batches module (contract 16): the batch operations and the batch worker every node runs (started and stopped with the service);
// the moves of live orders to a new flow version (contract 15) run as batches, so their route and tool are wired here too.
import type { ServiceModule } from './service-module.js';
import { detectSearchMode } from '../orders/order-search.js';
import { batchOperations } from '../application/operations/batch-operations.js';
import { flowMigrationOperations } from '../application/operations/flow-migration-operations.js';
import { BatchWorker } from '../application/batches/batch-worker.js';
import type { BatchServices } from '../application/batches/batch-operation-table.js';
import { FlowMigrations } from '../orders/flow-migration.js';

export const batchesModule: ServiceModule = async (ctx) => {
  const { db, clock, logger } = ctx;
  const engine = ctx.engine;
  if (!engine) throw new Error('the batches module needs the engine module first');
  const searchMode = await detectSearchMode(db);
  const migrations = new FlowMigrations({ db, clock, engine });
  const services: BatchServices = {
    planMigration: async (input) => {
      const plan = await migrations.plan(input);
      return { flowId: plan.flowId, fromVersion: plan.fromVersion, toVersion: plan.toVersion, mapping: plan.mapping };
    },
    moveOrder: async (orderId, input) => {
      const moved = await migrations.moveOne(orderId, { ...input, mapping: input.mapping ?? {} });
      return moved.outcome === 'refused' ? { outcome: 'skipped', error: moved.reason } : { outcome: 'done' };
    },
  };
  const worker = new BatchWorker({ db, clock, logger: logger.child({ component: 'batches' }), registry: () => ctx.operations, services, ...ctx.startOptions.batches });
  const onRunnable = () => worker.wake();
  // The batch operations read their roles from the operations they run: the orders module registers those first, the
  // migrations route (migrate's) comes next.
  ctx.operations.add(...Object.values(flowMigrationOperations({ db, clock, logger, searchMode: () => searchMode, migrations, onRunnable })));
  ctx.operations.add(...Object.values(batchOperations({ db, clock, logger, searchMode: () => searchMode, registry: () => ctx.operations, onRunnable, services })));
  return {
    start: () => {
      worker.start();
      return Promise.resolve();
    },
    stop: () => worker.stop(),
  };
};

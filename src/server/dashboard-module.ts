// Dashboard module: the pages of contract section 13, their bundled script and the draft editor's check operation, drawn with the orders module's flow drawings.
import type { ServiceModule } from './service-module.js';
import { dashboardRouter } from '../web/dashboard/dashboard-router.js';
import { dashboardBundle } from '../web/dashboard/client-bundle.js';
import { flowDraftOperations } from '../application/operations/flow-draft-operations.js';

export const dashboardModule: ServiceModule = (ctx) => {
  const diagrams = ctx.flowDiagrams;
  if (!diagrams || !ctx.engine) throw new Error('the dashboard module needs the engine and orders modules first');
  // The draft editor's check (also REST: POST /api/v1/flows/:id/validate).
  ctx.operations.add(...flowDraftOperations({ catalogue: ctx.engine.catalogue, diagrams }));
  return {
    routers: [dashboardRouter({ auth: ctx.auth, catalogue: ctx.engine.catalogue, operations: ctx.operations, diagrams, clock: ctx.clock })],
    // Built once at start (esbuild, in memory): a broken client fails the start, not a page load.
    start: async () => void (await dashboardBundle()),
  };
};

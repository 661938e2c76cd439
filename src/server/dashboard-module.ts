// Dashboard module: the pages of contract section 13 and their bundled script, drawn with the orders module's flow drawings.
import type { ServiceModule } from './service-module.js';
import { dashboardRouter } from '../web/dashboard/dashboard-router.js';
import { dashboardBundle } from '../web/dashboard/client-bundle.js';

export const dashboardModule: ServiceModule = (ctx) => {
  const diagrams = ctx.flowDiagrams;
  if (!diagrams) throw new Error('the dashboard module needs the orders module first');
  return {
    routers: [dashboardRouter({ auth: ctx.auth, operations: ctx.operations, diagrams, clock: ctx.clock })],
    // Built once at start (esbuild, in memory): a broken client fails the start, not a page load.
    start: async () => void (await dashboardBundle()),
  };
};
